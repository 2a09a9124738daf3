import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import jsQR from 'jsqr'
import { extractImages, extractText, getDocumentProxy } from 'unpdf'
import type { CreateInvoiceInput, InvoiceDetail } from '../../src/shared/schemas/billing'
import { browserHeaders } from './login'

/** One billing API call as a same-origin browser makes it. */
export function billingCall(
  app: FastifyInstance,
  cookie: string | undefined,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: method === 'GET' ? (cookie ? { cookie } : {}) : browserHeaders(cookie),
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  })
}

/** Today + `days` as yyyy-MM-dd in India. */
export function isoDateIn(days: number, from: Date = new Date()): string {
  const d = new Date(from.getTime() + 5.5 * 3_600_000 + days * 86_400_000)
  return d.toISOString().slice(0, 10)
}

/** A consultation (exempt) by default; lines override it. */
export function invoicePayload(
  patientId: string,
  overrides: Partial<CreateInvoiceInput> = {},
): CreateInvoiceInput {
  return {
    patientId,
    lines: [
      { name: 'OPD consultation', code: '999312', quantity: 1, unitPrice: 50_000, gstRate: 0 },
    ],
    dueDate: isoDateIn(7),
    ...overrides,
  }
}

export async function createInvoice(
  app: FastifyInstance,
  cookie: string,
  payload: unknown,
): Promise<InvoiceDetail> {
  const res = await billingCall(app, cookie, 'POST', '/api/invoices', payload)
  if (res.statusCode !== 201) throw new Error(`create invoice: ${res.statusCode} ${res.body}`)
  return res.json<InvoiceDetail>()
}

/** Every page's text of a PDF, joined. */
export async function pdfText(pdf: Buffer): Promise<string> {
  const doc = await getDocumentProxy(new Uint8Array(pdf))
  const { text } = await extractText(doc, { mergePages: true })
  return text
}

/**
 * pdf.js (inside unpdf) decodes images with ArrayBuffer.prototype.transferToFixedLength (Node
 * 21+); on Node 20 a copying stand-in does the same.
 */
function polyfillTransfer(): void {
  const proto = ArrayBuffer.prototype as ArrayBuffer & { transferToFixedLength?: unknown }
  if (typeof proto.transferToFixedLength === 'function') return
  Object.defineProperty(proto, 'transferToFixedLength', {
    configurable: true,
    value(this: ArrayBuffer, length?: number) {
      const size = length ?? this.byteLength
      const copy = new ArrayBuffer(size)
      new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(size, this.byteLength)))
      return copy
    },
  })
}

/** The text of the first QR code among the images of the PDF's first page (null: none). */
export async function pdfQrText(pdf: Buffer): Promise<string | null> {
  polyfillTransfer()
  const doc = await getDocumentProxy(new Uint8Array(pdf))
  const images = await extractImages(doc, 1)
  for (const image of images) {
    const rgba = new Uint8ClampedArray(image.width * image.height * 4)
    for (let i = 0; i < image.width * image.height; i++) {
      const c = image.channels
      const r = image.data[i * c] ?? 0
      rgba[i * 4] = r
      rgba[i * 4 + 1] = c >= 3 ? (image.data[i * c + 1] ?? 0) : r
      rgba[i * 4 + 2] = c >= 3 ? (image.data[i * c + 2] ?? 0) : r
      rgba[i * 4 + 3] = 255
    }
    const code = jsQR(rgba, image.width, image.height)
    if (code) return code.data
  }
  return null
}
