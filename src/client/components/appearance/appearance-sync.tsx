import { useEffect } from 'react'
import { usePreferences } from './api/preferences'
import { applyAppearance, cacheAppearance, clearAppearance, darkQuery } from './apply-appearance'

/**
 * Keeps <html> in step with the signed-in user's Settings → Appearance: applied and cached
 * whenever they load or change, followed live when the theme is 'system', and cleared on
 * sign-out (when the shell goes). Renders nothing.
 */
export function AppearanceSync() {
  const { data, isSuccess, isPlaceholderData } = usePreferences()

  useEffect(() => {
    if (!data) return
    applyAppearance(data)
    if (isSuccess && !isPlaceholderData) cacheAppearance(data)
    if (data.theme !== 'system') return
    const media = window.matchMedia(darkQuery)
    const follow = () => applyAppearance(data)
    media.addEventListener('change', follow)
    return () => media.removeEventListener('change', follow)
  }, [data, isSuccess, isPlaceholderData])

  useEffect(() => clearAppearance, [])
  return null
}
