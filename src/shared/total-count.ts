/**
 * Header carrying how many patients match the list's search, over all pages. Sent only when
 * the request asks with count=1 (counting reads every match; a page does not).
 * (Its own file: the patients list reads it without the patient schemas' phone check.)
 */
export const TOTAL_COUNT_HEADER = 'x-total-count'
