/** The first rows of a CSV file, read in the browser for the import's preview. */
export interface CsvHead {
  headers: string[]
  rows: string[][]
}

/** How much of the file the preview reads: enough for a header and five ordinary rows. */
const HEAD_BYTES = 256 * 1024

/**
 * Reads the start of the file and parses its header and first `rows` rows with csv-parse
 * (loaded only when a file is picked). A last row cut off by the byte limit is left out.
 */
export async function readCsvHead(file: File, rows = 5): Promise<CsvHead> {
  const bytes = file.slice(0, HEAD_BYTES)
  let text = await bytes.text()
  if (file.size > HEAD_BYTES) {
    const lastBreak = text.lastIndexOf('\n')
    if (lastBreak > 0) text = text.slice(0, lastBreak + 1)
  }
  const { parse } = await import('csv-parse/browser/esm/sync')
  const records = parse(text, {
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    to_line: 200,
  }) as string[][]
  const [header, ...data] = records
  const headers = (header ?? []).map((h) => h.trim())
  if (!headers.some((h) => h !== '')) {
    throw new Error('The file is empty: its first row must name the columns')
  }
  return { headers, rows: data.slice(0, rows) }
}
