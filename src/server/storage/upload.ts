import type { Readable } from 'node:stream'
import { Transform } from 'node:stream'
import { AppError } from '../http/app-error'
import { feed } from './feed'
import { SNIFF_BYTES, type Sniffed, sniff } from './sniff'
import type { ObjectStorage } from './storage'

export type FileKind = 'image' | 'video' | 'pdf' | 'doc' | 'docx' | 'txt'

interface ExtensionRule {
  kind: FileKind
  sniffed: Sniffed
  contentType: string
}

/** The extensions uploads accept, what their content must be, and the type they are served as. */
const EXTENSIONS: Record<string, ExtensionRule> = {
  png: { kind: 'image', sniffed: 'png', contentType: 'image/png' },
  jpg: { kind: 'image', sniffed: 'jpeg', contentType: 'image/jpeg' },
  jpeg: { kind: 'image', sniffed: 'jpeg', contentType: 'image/jpeg' },
  gif: { kind: 'image', sniffed: 'gif', contentType: 'image/gif' },
  webp: { kind: 'image', sniffed: 'webp', contentType: 'image/webp' },
  mp4: { kind: 'video', sniffed: 'ftyp', contentType: 'video/mp4' },
  m4v: { kind: 'video', sniffed: 'ftyp', contentType: 'video/mp4' },
  mov: { kind: 'video', sniffed: 'ftyp', contentType: 'video/quicktime' },
  webm: { kind: 'video', sniffed: 'webm', contentType: 'video/webm' },
  pdf: { kind: 'pdf', sniffed: 'pdf', contentType: 'application/pdf' },
  doc: { kind: 'doc', sniffed: 'ole', contentType: 'application/msword' },
  docx: {
    kind: 'docx',
    sniffed: 'docx',
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  },
  txt: { kind: 'txt', sniffed: 'text', contentType: 'text/plain; charset=utf-8' },
}

/** Extensions accepted for each kind (for messages and the client's `accept`). */
export function extensionsFor(kinds: readonly FileKind[]): string[] {
  return Object.keys(EXTENSIONS).filter((ext) => kinds.includes(EXTENSIONS[ext]!.kind))
}

/** The type a stored file is served as: from the checked kind and extension, never the client's. */
export function safeContentType(kind: FileKind, ext: string): string {
  const rule = EXTENSIONS[ext.toLowerCase().replace(/^\./, '')]
  return rule?.kind === kind ? rule.contentType : 'application/octet-stream'
}

export const MAX_FILENAME_LENGTH = 200

const badName = (message: string) =>
  new AppError('VALIDATION', `Invalid file name: ${message}`, [{ path: 'filename', message }])
const badFile = (message: string) =>
  new AppError('VALIDATION', message, [{ path: 'file', message }])

/** C0/C1 controls and the bidi overrides that make "exe.txt" read as "txt.exe". */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/u

/**
 * The file name as it will be stored and offered back: NFC, trimmed. 400 ('filename') when
 * empty, longer than 200 characters, or with a path separator or a control character.
 */
export function checkFilename(raw: string): string {
  const name = raw.normalize('NFC').trim()
  if (!name) throw badName('The file needs a name')
  if (name.length > MAX_FILENAME_LENGTH) {
    throw badName(`The file name is longer than ${MAX_FILENAME_LENGTH} characters`)
  }
  if (/[/\\]/.test(name)) throw badName('The file name cannot contain / or \\')
  if (CONTROL.test(name)) throw badName('The file name cannot contain control characters')
  if (name === '.' || name === '..') throw badName('The file needs a name')
  return name
}

export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.')
  return dot > 0 ? filename.slice(dot + 1).toLowerCase() : ''
}

/**
 * Holds back the first bytes until it can tell what the file is, refuses a file whose content
 * is not what its extension says (or an empty one), then lets the rest through; text is
 * checked all the way (valid UTF-8, no NUL).
 */
function contentCheck(ext: string, rule: ExtensionRule): Transform {
  let head: Buffer[] = []
  let headBytes = 0
  let decided = false
  let total = 0
  const decoder = rule.sniffed === 'text' ? new TextDecoder('utf-8', { fatal: true }) : null
  const notIt = () => badFile(`The file's content is not a ${ext} file`)
  const checkText = (chunk: Buffer, last: boolean): boolean => {
    if (!decoder) return true
    if (chunk.includes(0)) return false
    try {
      decoder.decode(chunk, { stream: !last })
      return true
    } catch {
      return false
    }
  }
  const decide = (): Buffer | AppError => {
    decided = true
    const all = Buffer.concat(head)
    head = []
    if (sniff(all) !== rule.sniffed) return notIt()
    return all
  }
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      total += chunk.length
      if (!checkText(chunk, false)) return callback(notIt())
      if (decided) return callback(null, chunk)
      head.push(chunk)
      headBytes += chunk.length
      if (headBytes < SNIFF_BYTES) return callback()
      const result = decide()
      if (result instanceof AppError) return callback(result)
      callback(null, result)
    },
    flush(callback) {
      if (total === 0) return callback(badFile('The file is empty'))
      if (!checkText(Buffer.alloc(0), true)) return callback(notIt())
      if (decided) return callback()
      const result = decide()
      if (result instanceof AppError) return callback(result)
      callback(null, result)
    },
  })
}

/**
 * Streams an upload into storage under key: checks the name, the extension against allowed,
 * the content against the extension (magic bytes), the size while streaming (413 past
 * maxBytes). On any failure nothing is left in storage.
 */
export async function receiveUpload(opts: {
  storage: ObjectStorage
  key: string
  body: Readable
  filename: string
  maxBytes: number
  allowed: readonly FileKind[]
}): Promise<{
  size: number
  sha256: string
  contentType: string
  kind: FileKind
  filename: string
}> {
  const filename = checkFilename(opts.filename)
  const ext = extensionOf(filename)
  const rule = EXTENSIONS[ext]
  if (!rule || !opts.allowed.includes(rule.kind)) {
    const list = extensionsFor(opts.allowed).join(', ')
    throw badFile(
      ext
        ? `Files of type .${ext} cannot be attached; allowed: ${list}`
        : `The file name needs an extension; allowed: ${list}`,
    )
  }
  const body = opts.body as Readable | null | undefined | Record<string, unknown>
  if (body === undefined || body === null) throw badFile('The file is empty')
  if (typeof (body as Readable).pipe !== 'function') {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as application/octet-stream')
  }
  const check = contentCheck(ext, rule)
  // It may fail before storage takes it (an empty body ends at once); put sees check.errored.
  check.on('error', () => undefined)
  const detach = feed(opts.body, check)
  try {
    const { size, sha256 } = await opts.storage.put(opts.key, check, {
      maxBytes: opts.maxBytes,
      contentType: rule.contentType,
    })
    return { size, sha256, contentType: rule.contentType, kind: rule.kind, filename }
  } finally {
    detach()
  }
}
