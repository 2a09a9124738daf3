import { useEffect } from 'react'

/** Sets the tab title to "<title> · Arogya CRM" while the screen shows, then puts back the old one. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    const previous = document.title
    document.title = `${title} · Arogya CRM`
    return () => {
      document.title = previous
    }
  }, [title])
}
