/**
 * The smallest files each upload kind accepts (their magic bytes and a little body), for
 * tests of receiveUpload and of the routes that use it (docs/decisions/036-file-storage.md).
 */
const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(
    parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))),
  )

/** A zip whose first entry is named `name` (a local file header, as Word writes it). */
export function zipWithFirstEntry(name: string): Buffer {
  const header = Buffer.alloc(30)
  header.writeUInt32LE(0x04034b50, 0)
  header.writeUInt16LE(20, 4)
  header.writeUInt16LE(Buffer.byteLength(name, 'latin1'), 26)
  return Buffer.concat([header, Buffer.from(name, 'latin1'), Buffer.from('<?xml version="1.0"?>')])
}

export const samples = {
  png: bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0, 0, 0, 13], 'IHDR', [0, 0, 0, 1]),
  jpg: bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 'JFIF', [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
  gif: bytes('GIF89a', [1, 0, 1, 0, 0x80, 0, 0]),
  webp: bytes('RIFF', [26, 0, 0, 0], 'WEBPVP8 ', [14, 0, 0, 0]),
  mp4: bytes([0, 0, 0, 0x18], 'ftypmp42', [0, 0, 0, 0], 'mp42isom'),
  mov: bytes([0, 0, 0, 0x14], 'ftypqt  ', [0, 0, 0, 0], 'qt  '),
  webm: bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01], 'webm'),
  pdf: bytes('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n%%EOF\n'),
  doc: bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], Array(24).fill(0)),
  docx: zipWithFirstEntry('[Content_Types].xml'),
  txt: Buffer.from('Patient called about the MRI report. नमस्ते 🙏\n', 'utf8'),
} as const

export type SampleExt = keyof typeof samples
