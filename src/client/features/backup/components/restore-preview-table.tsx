import type { RestoreTablePreview } from '@/shared/schemas/backup'
import { previewTotals, tableLabel } from '../backup-view'

const count = new Intl.NumberFormat('en-IN')

const columns = {
  preview: [
    ['inBackup', 'In backup'],
    ['current', 'Now'],
    ['toInsert', 'To add'],
    ['toUpdate', 'To update'],
    ['toDelete', 'To delete'],
  ],
  done: [
    ['inBackup', 'In backup'],
    ['current', 'Before'],
    ['toInsert', 'Added'],
    ['toUpdate', 'Updated'],
    ['toDelete', 'Deleted'],
  ],
} as const

/**
 * The dry run per table. The table scrolls sideways inside its own box on a phone, so the
 * dialog and the page never do.
 */
export function RestorePreviewTable({
  tables,
  caption,
  done = false,
}: {
  tables: readonly RestoreTablePreview[]
  caption: string
  /** After the restore: what it changed, in the past tense. */
  done?: boolean
}) {
  const totals = previewTotals(tables)
  const cols = columns[done ? 'done' : 'preview']
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-700" aria-live="polite">
        {done
          ? `${count.format(totals.toInsert)} added, ${count.format(totals.toUpdate)} updated, ${count.format(totals.toDelete)} deleted.`
          : `${count.format(totals.toInsert)} to add, ${count.format(totals.toUpdate)} to update, ${count.format(totals.toDelete)} to delete.`}
      </p>
      {/* A focusable region: keyboard users can scroll it (axe scrollable-region-focusable). */}
      <div
        className="max-w-full overflow-x-auto rounded-md border border-slate-200"
        role="region"
        aria-label={caption}
        tabIndex={0}
      >
        <table className="w-full min-w-[30rem] text-left text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-slate-50 text-xs text-slate-600">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">
                Table
              </th>
              {cols.map(([key, label]) => (
                <th key={key} scope="col" className="px-3 py-2 text-right font-medium">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {tables.map((t) => (
              <tr key={t.table} className="border-t border-slate-100">
                <th scope="row" className="px-3 py-1.5 font-normal">
                  {tableLabel(t.table)}
                </th>
                {cols.map(([key]) => (
                  <td key={key} className="px-3 py-1.5 text-right tabular-nums">
                    {count.format(t[key])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}
