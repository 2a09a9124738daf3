import { useSyncExternalStore } from 'react'

/**
 * The call this tab placed and still shows (issue 41): the live bar follows it until its
 * disposition is chosen or the bar is closed. One at a time (the server allows one live call
 * per staff member), kept for the tab's session so a reload still shows it.
 */
export interface CallContact {
  kind: 'lead' | 'patient'
  id: string
  name: string
  phone?: string | undefined
}

export interface ShownCall {
  callId: string
  contact: CallContact
}

const KEY = 'arogya.shown-call'
const listeners = new Set<() => void>()

function read(): ShownCall | null {
  try {
    const raw = sessionStorage.getItem(KEY)
    const value = raw ? (JSON.parse(raw) as Partial<ShownCall>) : null
    return value &&
      typeof value.callId === 'string' &&
      typeof value.contact?.id === 'string' &&
      typeof value.contact.name === 'string' &&
      (value.contact.kind === 'lead' || value.contact.kind === 'patient')
      ? (value as ShownCall)
      : null
  } catch {
    return null
  }
}

let current: ShownCall | null = typeof sessionStorage === 'undefined' ? null : read()

export function showCall(call: ShownCall | null): void {
  current = call
  try {
    if (call) sessionStorage.setItem(KEY, JSON.stringify(call))
    else sessionStorage.removeItem(KEY)
  } catch {
    // storage unavailable: kept in memory only
  }
  for (const listener of listeners) listener()
}

export function useShownCall(): ShownCall | null {
  return useSyncExternalStore(
    (onChange) => {
      listeners.add(onChange)
      return () => listeners.delete(onChange)
    },
    () => current,
    () => null,
  )
}
