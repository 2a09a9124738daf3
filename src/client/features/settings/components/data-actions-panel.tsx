/**
 * Settings: Export, backup and delete (issue 27). Placeholder while its slice is built; the slice replaces this
 * file and keeps the export's name.
 */
export function DataActionsPanel() {
  return null
}
