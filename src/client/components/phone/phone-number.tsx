import { useEffect, useSyncExternalStore } from 'react'
import { formatIndianPhone } from '@/shared/phone-india'

type Format = (e164: string) => string

// Every country's formats (libphonenumber's `min` metadata, 20 KB gzip), loaded once the
// first number of another country than India is on screen.
let format: Format | undefined
let loading: Promise<void> | undefined
const listeners = new Set<() => void>()

function load(): void {
  loading ??= import('@/shared/phone-format').then((m) => {
    format = m.formatPhone
    for (const listener of listeners) listener()
  })
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/**
 * A stored number (E.164) shown the way phones are shown everywhere ('+91 98765 43210'): an
 * Indian one at once, another country's once its formats have loaded (E.164 until then).
 */
export function PhoneNumber({ value }: { value: string }) {
  const indian = formatIndianPhone(value)
  const full = useSyncExternalStore(subscribe, () => format)
  useEffect(() => {
    if (indian === null) load()
  }, [indian])
  return <>{indian ?? full?.(value) ?? value}</>
}
