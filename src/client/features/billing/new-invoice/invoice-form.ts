import { TZDate } from '@date-fns/tz'
import { addDays, format } from 'date-fns'
import { z } from 'zod'
import { DEFAULT_TIME_ZONE } from '@/shared/dates'
import type { GstRate } from '@/shared/billing'
import { type CatalogueService, createInvoiceInput } from '@/shared/schemas/billing'
import { paiseToRupeesText, RUPEES_MESSAGE, rupeesTextToPaise } from '../money-input'
import type { PreviewLine } from './invoice-preview'

/** One line as typed: rupees and counts are text until the form is sent. */
export interface LineValues {
  serviceId: string | null
  name: string
  code: string
  quantity: string
  /** Rupees. */
  unitPrice: string
  /** Rupees, off the line. */
  discount: string
  gstRate: '0' | '5' | '12' | '18'
}

export interface InvoiceFormValues {
  patientId: string
  /** '' = the hospital's own state (the server's default). */
  patientStateCode: string
  dueDate: string
  notes: string
  lines: LineValues[]
}

export const emptyLine: LineValues = {
  serviceId: null,
  name: '',
  code: '',
  quantity: '1',
  unitPrice: '',
  discount: '',
  gstRate: '0',
}

/** Today as 'yyyy-MM-dd' in the hospital's zone. */
export function todayIn(timeZone: string = DEFAULT_TIME_ZONE, now: Date = new Date()): string {
  return format(new TZDate(now.getTime(), timeZone), 'yyyy-MM-dd')
}

export function defaultInvoiceValues(
  now: Date = new Date(),
  timeZone: string = DEFAULT_TIME_ZONE,
): InvoiceFormValues {
  const today = new TZDate(now.getTime(), timeZone)
  return {
    patientId: '',
    patientStateCode: '',
    dueDate: format(addDays(today, 7), 'yyyy-MM-dd'),
    notes: '',
    lines: [{ ...emptyLine }],
  }
}

/** A catalogue service pre-fills a line: its name, SAC/HSN code, price and GST rate. */
export function lineFromService(service: CatalogueService, quantity = '1'): LineValues {
  return {
    serviceId: service.id,
    name: service.name,
    code: service.code ?? '',
    quantity,
    unitPrice: paiseToRupeesText(service.defaultPrice),
    discount: '',
    gstRate: String(service.gstRate) as LineValues['gstRate'],
  }
}

const count = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN)

/** A typed line's numbers (0 where a field is not a number yet), for the live preview. */
export function previewLineOf(line: LineValues): PreviewLine {
  const quantity = count(line.quantity)
  return {
    quantity: Number.isFinite(quantity) ? quantity : 0,
    unitPrice: rupeesTextToPaise(line.unitPrice) ?? 0,
    discount: line.discount.trim() ? (rupeesTextToPaise(line.discount) ?? 0) : 0,
    gstRate: Number(line.gstRate),
  }
}

/** The API body for the typed values; a rupee text that is not an amount becomes null. */
function toInput(v: InvoiceFormValues) {
  return {
    patientId: v.patientId,
    lines: v.lines.map((l) => ({
      ...(l.serviceId ? { serviceId: l.serviceId } : {}),
      name: l.name,
      code: l.code,
      quantity: count(l.quantity),
      unitPrice: rupeesTextToPaise(l.unitPrice),
      discount: l.discount.trim() ? rupeesTextToPaise(l.discount) : 0,
      gstRate: Number(l.gstRate) as GstRate,
    })),
    dueDate: v.dueDate,
    notes: v.notes,
    ...(v.patientStateCode ? { patientStateCode: v.patientStateCode } : {}),
  }
}

/**
 * The form's schema: typed rupees become paise, then the shared createInvoiceInput (the one
 * the server uses) checks everything, so its messages land on the same field paths, all at
 * once. A rupee text that is not an amount gets this form's own message instead of the
 * schema's. The due date may not be before today in the hospital's zone (the server checks
 * it too).
 */
export function invoiceFormSchema(today: string = todayIn()) {
  return z
    .custom<InvoiceFormValues>()
    .superRefine((v, ctx) => {
      const input = toInput(v)
      const own = new Set<string>()
      input.lines.forEach((l, i) => {
        for (const field of ['unitPrice', 'discount'] as const) {
          if (l[field] !== null) continue
          own.add(`lines.${i}.${field}`)
          ctx.addIssue({ code: 'custom', path: ['lines', i, field], message: RUPEES_MESSAGE })
        }
      })
      if (/^\d{4}-\d{2}-\d{2}$/.test(v.dueDate) && v.dueDate < today)
        ctx.addIssue({
          code: 'custom',
          path: ['dueDate'],
          message: 'Due date cannot be in the past',
        })
      const shared = createInvoiceInput.safeParse(input)
      if (shared.success) return
      for (const issue of shared.error.issues) {
        if (own.has(issue.path.join('.'))) continue
        ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message })
      }
    })
    .transform((v) => createInvoiceInput.parse(toInput(v)))
}

/** What the form hands to the API: the shared createInvoiceInput's output. */
export type InvoiceFormOutput = z.output<ReturnType<typeof invoiceFormSchema>>
