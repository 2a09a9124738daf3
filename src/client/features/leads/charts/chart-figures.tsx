import type { ReactNode } from 'react'

/**
 * The figures behind a chart as a table, folded away under 'Show the figures': for screen
 * readers, keyboard users and anyone who wants the exact numbers. A wide table scrolls
 * inside its own box (focusable, so keyboards can scroll it), never the page.
 */
export function ChartFigures({
  caption,
  head,
  rows,
}: {
  caption: string
  head: readonly string[]
  rows: readonly { key: string; cells: readonly ReactNode[] }[]
}) {
  return (
    <details className="mt-3 text-sm">
      <summary className="cursor-pointer font-medium text-brand-700">Show the figures</summary>
      <div
        role="region"
        aria-label={caption}
        tabIndex={0}
        className="mt-2 max-h-72 overflow-auto rounded-md border border-slate-200"
      >
        <table className="w-full border-collapse text-left tabular-nums">
          <caption className="sr-only">{caption}</caption>
          <thead className="sticky top-0 bg-slate-50">
            <tr>
              {head.map((h, i) => (
                <th
                  key={h}
                  scope="col"
                  className={`px-2 py-1.5 font-medium whitespace-nowrap ${i ? 'text-right' : ''}`}
                >
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key} className="border-t border-slate-100">
                {row.cells.map((cell, i) =>
                  i === 0 ? (
                    <th key={i} scope="row" className="px-2 py-1 font-normal whitespace-nowrap">
                      {cell}
                    </th>
                  ) : (
                    <td key={i} className="px-2 py-1 text-right">
                      {cell}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  )
}
