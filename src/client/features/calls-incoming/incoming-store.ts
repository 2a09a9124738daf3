import { useSyncExternalStore } from 'react'

/**
 * The incoming calls this tab shows as pop-ups (issue 41), newest first, at most three: an
 * `incoming_call` event for the signed-in member's ring group adds one (so does the sandbox's
 * simulation, should the event stream be down); Dismiss removes it.
 */

const MAX_SHOWN = 3
const listeners = new Set<() => void>()
let shown: readonly string[] = []

function set(next: readonly string[]) {
  shown = next
  for (const listener of listeners) listener()
}

export function showIncoming(callId: string): void {
  if (shown.includes(callId)) return
  set([callId, ...shown].slice(0, MAX_SHOWN))
}

export function dismissIncoming(callId: string): void {
  set(shown.filter((id) => id !== callId))
}

export function useShownIncoming(): readonly string[] {
  return useSyncExternalStore(
    (onChange) => {
      listeners.add(onChange)
      return () => listeners.delete(onChange)
    },
    () => shown,
    () => shown,
  )
}
