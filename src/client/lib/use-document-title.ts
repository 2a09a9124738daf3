import { useEffect } from 'react'

export const SITE_TITLE = 'Arogya CRM'

/**
 * Sets the tab title to "<title> · Arogya CRM" while the screen shows, then puts back the old
 * one. Staff screens get theirs from the route table (staff-routes.tsx); a screen calls this
 * only for a more specific title (a dialog, a record), which then wins while it shows.
 */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    const previous = document.title
    document.title = `${title} · ${SITE_TITLE}`
    return () => {
      document.title = previous
    }
  }, [title])
}

/** The same as a component, for route tables. */
export function DocumentTitle({ title }: { title: string }): null {
  useDocumentTitle(title)
  return null
}
