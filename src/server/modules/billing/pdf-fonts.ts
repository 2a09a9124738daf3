import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/*
 * The invoice PDF's font: DejaVu Sans (Bitstream Vera licence, assets/DejaVu-LICENSE.txt), kept
 * in the repo because it prints '₹' and PDF's built-in Helvetica cannot. Found beside this file
 * (tsx, tests), under the working directory (the bundled server, started from the repo), or
 * from Debian's fonts-dejavu-core.
 */

const FILES = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' } as const
export type FontWeight = keyof typeof FILES

function candidates(file: string): string[] {
  const here = fileURLToPath(new URL(`./assets/${file}`, import.meta.url))
  return [
    here,
    join(process.cwd(), 'src/server/modules/billing/assets', file),
    join('/usr/share/fonts/truetype/dejavu', file),
  ]
}

const cache = new Map<FontWeight, Buffer>()

/** The font's bytes, read once per process. */
export function pdfFont(weight: FontWeight): Buffer {
  const cached = cache.get(weight)
  if (cached) return cached
  const path = candidates(FILES[weight]).find((p) => existsSync(p))
  if (!path) throw new Error(`invoice PDF: font ${FILES[weight]} not found`)
  const bytes = readFileSync(path)
  cache.set(weight, bytes)
  return bytes
}
