/**
 * What a file is, from its first bytes (magic numbers), for the kinds uploads accept. A small
 * table rather than a library: eight signatures, and docx needs a look at the zip's first
 * entry anyway. Text is checked as it streams (valid UTF-8, no NUL), see upload.ts.
 */
export type Sniffed =
  | 'png'
  | 'jpeg'
  | 'gif'
  | 'webp'
  | 'ftyp'
  | 'webm'
  | 'pdf'
  | 'ole'
  | 'docx'
  | 'zip'
  | 'text'
  | 'unknown'

/** Bytes read before deciding (enough for every signature and a zip's first entry name). */
export const SNIFF_BYTES = 4100

const startsWith = (head: Buffer, bytes: number[], at = 0) =>
  head.length >= at + bytes.length && bytes.every((b, i) => head[at + i] === b)
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0))

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const JPEG = [0xff, 0xd8, 0xff]
const GIF87 = ascii('GIF87a')
const GIF89 = ascii('GIF89a')
const RIFF = ascii('RIFF')
const WEBP = ascii('WEBP')
const FTYP = ascii('ftyp')
const EBML = [0x1a, 0x45, 0xdf, 0xa3]
const PDF = ascii('%PDF-')
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]
const ZIP = [0x50, 0x4b, 0x03, 0x04]

/**
 * A zip that looks like a Word document: Word (and LibreOffice, Google Docs) write
 * [Content_Types].xml first; word/ entries may also show within the first bytes.
 */
function isDocx(head: Buffer): boolean {
  const nameLength = head.length >= 30 ? head.readUInt16LE(26) : 0
  const first = head.subarray(30, 30 + nameLength).toString('latin1')
  return first === '[Content_Types].xml' || head.includes('word/', 0, 'latin1')
}

/** NUL bytes are binary; the rest of text's check (valid UTF-8) runs over the whole file. */
function looksLikeText(head: Buffer): boolean {
  return head.length > 0 && !head.includes(0)
}

export function sniff(head: Buffer): Sniffed {
  if (startsWith(head, PNG)) return 'png'
  if (startsWith(head, JPEG)) return 'jpeg'
  if (startsWith(head, GIF87) || startsWith(head, GIF89)) return 'gif'
  if (startsWith(head, RIFF) && startsWith(head, WEBP, 8)) return 'webp'
  if (startsWith(head, FTYP, 4)) return 'ftyp'
  if (startsWith(head, EBML)) return 'webm'
  if (startsWith(head, PDF)) return 'pdf'
  if (startsWith(head, OLE)) return 'ole'
  if (startsWith(head, ZIP)) return isDocx(head) ? 'docx' : 'zip'
  if (looksLikeText(head)) return 'text'
  return 'unknown'
}
