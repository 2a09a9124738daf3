import { useEffect } from 'react'
import { useLocation, useSearch } from 'wouter'

/**
 * Opens a screen's dialog when its address asks (`?new=1`, e.g. from the command palette) and
 * the user may use it, then drops the parameter so a reload or Back does not open it again.
 */
export function useOpenFromUrl(allowed: boolean, open: () => void, param = 'new'): void {
  const asked = new URLSearchParams(useSearch()).get(param) === '1'
  const [location, navigate] = useLocation()
  useEffect(() => {
    if (!asked || !allowed) return
    open()
    navigate(location, { replace: true })
  }, [asked, allowed, open, location, navigate])
}
