import { useEffect } from 'react'
import { HEARTBEAT_MS } from '@/shared/live-monitoring'
import { apiFetch } from './api-client'

const HEARTBEAT_URL = '/api/live-monitoring/heartbeat'
const OFFLINE_URL = '/api/live-monitoring/offline'

/**
 * Live Monitoring presence (issue 29): while a hospital member's tab is visible it says so every
 * minute; when the page goes away (tab closed, reload, navigation) a beacon marks the member
 * offline. A hidden tab sends nothing, so its member reads idle, then away, then offline.
 */
export function usePresenceHeartbeat(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return
    let timer: number | undefined
    const beat = () => {
      if (document.visibilityState !== 'visible') return
      apiFetch('POST', HEARTBEAT_URL).catch(() => undefined)
    }
    const start = () => {
      window.clearInterval(timer)
      beat()
      timer = window.setInterval(beat, HEARTBEAT_MS)
    }
    const onVisibility = () => {
      if (document.visibilityState === 'visible') start()
      else window.clearInterval(timer)
    }
    // sendBeacon posts with no body: the server takes an empty body only, same origin only.
    const onPageHide = () => {
      if (typeof navigator.sendBeacon === 'function') navigator.sendBeacon(OFFLINE_URL)
    }
    const onPageShow = (e: PageTransitionEvent) => {
      if (e.persisted) start()
    }
    start()
    document.addEventListener('visibilitychange', onVisibility)
    window.addEventListener('pagehide', onPageHide)
    window.addEventListener('pageshow', onPageShow)
    return () => {
      window.clearInterval(timer)
      document.removeEventListener('visibilitychange', onVisibility)
      window.removeEventListener('pagehide', onPageHide)
      window.removeEventListener('pageshow', onPageShow)
    }
  }, [enabled])
}
