import { useEffect } from 'react'
import { useLocation } from 'wouter'
import { findMarketingPage, OG_IMAGE_PATH } from '@/shared/marketing-pages'

function setMeta(selector: string, attribute: 'name' | 'property', key: string, content: string) {
  let element = document.head.querySelector<HTMLMetaElement>(selector)
  if (!element) {
    element = document.createElement('meta')
    element.setAttribute(attribute, key)
    document.head.append(element)
  }
  element.content = content
}

/**
 * Keeps the head in step when the visitor moves between marketing pages without a reload
 * (the server sends the right tags on a full page load: server/modules/seo).
 */
export function usePageMeta(): void {
  const [location] = useLocation()
  useEffect(() => {
    const page = findMarketingPage(location)
    if (!page) return
    const url = `${window.location.origin}${page.path}`
    document.title = page.title
    setMeta('meta[name="description"]', 'name', 'description', page.description)
    setMeta('meta[property="og:title"]', 'property', 'og:title', page.title)
    setMeta('meta[property="og:description"]', 'property', 'og:description', page.description)
    setMeta('meta[property="og:url"]', 'property', 'og:url', url)
    setMeta(
      'meta[property="og:image"]',
      'property',
      'og:image',
      `${window.location.origin}${OG_IMAGE_PATH}`,
    )
    let canonical = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]')
    if (!canonical) {
      canonical = document.createElement('link')
      canonical.rel = 'canonical'
      document.head.append(canonical)
    }
    canonical.href = url
  }, [location])
}
