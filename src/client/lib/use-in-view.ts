import { useEffect, useRef } from 'react'

/** Calls onEnter when the returned ref's element scrolls into view (for "load more"). */
export function useOnInView<T extends Element>(onEnter: () => void, enabled: boolean) {
  const ref = useRef<T | null>(null)
  const callback = useRef(onEnter)
  useEffect(() => {
    callback.current = onEnter
  })
  useEffect(() => {
    const element = ref.current
    if (!element || !enabled) return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) callback.current()
      },
      { rootMargin: '400px' },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [enabled])
  return ref
}
