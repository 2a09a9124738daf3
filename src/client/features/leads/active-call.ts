import { useSyncExternalStore } from 'react'

/**
 * The call this tab started from a lead's Call action and has not ended yet (issue 29): one at
 * a time, kept for the tab's session so a reload still offers 'End call'.
 */
export interface ActiveCall {
  leadId: string
  leadName: string
  callId: string
  startedAt: string
}

const KEY = 'arogya.active-call'
const listeners = new Set<() => void>()

function read(): ActiveCall | null {
  try {
    const raw = sessionStorage.getItem(KEY)
    const value = raw ? (JSON.parse(raw) as Partial<ActiveCall>) : null
    return value && typeof value.callId === 'string' && typeof value.leadId === 'string'
      ? (value as ActiveCall)
      : null
  } catch {
    return null
  }
}

let current: ActiveCall | null = typeof sessionStorage === 'undefined' ? null : read()

export function setActiveCall(call: ActiveCall | null): void {
  current = call
  try {
    if (call) sessionStorage.setItem(KEY, JSON.stringify(call))
    else sessionStorage.removeItem(KEY)
  } catch {
    // storage unavailable: kept in memory only
  }
  for (const listener of listeners) listener()
}

export function getActiveCall(): ActiveCall | null {
  return current
}

export function useActiveCall(): ActiveCall | null {
  return useSyncExternalStore(
    (onChange) => {
      listeners.add(onChange)
      return () => listeners.delete(onChange)
    },
    () => current,
    () => null,
  )
}
