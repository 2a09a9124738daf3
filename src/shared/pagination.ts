/*
 * Page sizes and the next-page header of the list endpoints, without zod, so the client's list
 * fetchers can use them without loading the schema library (schemas/common re-exports them).
 */

/** Rows a list page has when the client does not say (the web client never does). */
export const PAGE_SIZE = 30
/** The most rows a client may ask for in one page. */
export const MAX_PAGE_SIZE = 100
/** Header carrying the cursor of the next page on list endpoints that answer with an array. */
export const NEXT_CURSOR_HEADER = 'x-next-cursor'
