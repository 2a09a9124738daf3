import { describe, expect, it } from 'vitest'
import {
  defaultInvoiceValues,
  emptyLine,
  invoiceFormSchema,
  lineFromService,
  previewLineOf,
  todayIn,
} from './invoice-form'

const patientId = '6f1c2d3e-4a5b-4c6d-8e7f-901234567890'
const today = '2026-11-25'

function issues(values: unknown): Record<string, string> {
  const r = invoiceFormSchema(today).safeParse(values)
  if (r.success) return {}
  return Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]))
}

describe('invoiceFormSchema', () => {
  it('turns typed rupees into the API body in paise', () => {
    const r = invoiceFormSchema(today).parse({
      patientId,
      patientStateCode: '',
      dueDate: '2026-12-02',
      notes: '',
      lines: [
        { ...emptyLine, name: 'OPD Consultation', code: '9993', unitPrice: '800' },
        {
          ...emptyLine,
          name: 'Dental kit',
          quantity: '2',
          unitPrice: '1,250.50',
          discount: '100',
          gstRate: '12',
        },
      ],
    })
    expect(r.lines).toEqual([
      {
        name: 'OPD Consultation',
        code: '9993',
        quantity: 1,
        unitPrice: 80_000,
        discount: 0,
        gstRate: 0,
        serviceId: undefined,
      },
      {
        name: 'Dental kit',
        code: null,
        quantity: 2,
        unitPrice: 125_050,
        discount: 10_000,
        gstRate: 12,
        serviceId: undefined,
      },
    ])
    expect(r).not.toHaveProperty('patientStateCode')
    expect(r.notes).toBeNull()
  })

  it('says what is wrong, on the field that is wrong', () => {
    const found = issues({
      patientId: '',
      patientStateCode: '',
      dueDate: '2026-11-24',
      notes: '',
      lines: [{ ...emptyLine, name: ' ', quantity: '0', unitPrice: 'abc', code: '12' }],
    })
    expect(found['lines.0.unitPrice']).toMatch(/Enter an amount/)
    expect(found.dueDate).toBe('Due date cannot be in the past')
    // Every message at once, not only the first stage's.
    expect(found.patientId).toBe('Choose a patient')
    expect(found['lines.0.name']).toBe('Service name is required')
    expect(found['lines.0.quantity']).toBe('Quantity must be at least 1')
    expect(found['lines.0.code']).toBe('SAC/HSN code must be 4 to 8 digits')
  })

  it('refuses a quantity of 0, a price over ₹1 crore and a discount over the amount', () => {
    const base = { patientId, patientStateCode: '27', dueDate: today, notes: '' }
    expect(
      issues({ ...base, lines: [{ ...emptyLine, name: 'X', quantity: '0', unitPrice: '1' }] })[
        'lines.0.quantity'
      ],
    ).toBe('Quantity must be at least 1')
    expect(
      issues({ ...base, lines: [{ ...emptyLine, name: 'X', unitPrice: '1,00,00,000.01' }] })[
        'lines.0.unitPrice'
      ],
    ).toMatch(/1 crore/)
    expect(
      issues({ ...base, lines: [{ ...emptyLine, name: 'X', unitPrice: '100', discount: '101' }] })[
        'lines.0.discount'
      ],
    ).toBe('Discount cannot be more than the line amount')
    expect(
      issues({ ...base, patientId: 'nope', lines: [{ ...emptyLine, name: 'X', unitPrice: '1' }] })
        .patientId,
    ).toBe('Choose a patient')
    expect(issues({ ...base, lines: [] }).lines).toBe('Add at least one line')
  })

  it('sends a chosen place of supply', () => {
    const r = invoiceFormSchema(today).parse({
      patientId,
      patientStateCode: '29',
      dueDate: today,
      notes: 'Follow up in 2 weeks',
      lines: [{ ...emptyLine, name: 'X-ray', unitPrice: '650' }],
    })
    expect(r.patientStateCode).toBe('29')
    expect(r.notes).toBe('Follow up in 2 weeks')
  })
})

describe('form helpers', () => {
  it('a catalogue service pre-fills a line in rupees', () => {
    const line = lineFromService({
      id: patientId,
      name: 'Dental Cleaning',
      code: '9993',
      defaultPrice: 150_000,
      gstRate: 0,
      durationMinutes: 30,
      bookable: true,
      active: true,
    })
    expect(line).toMatchObject({
      name: 'Dental Cleaning',
      code: '9993',
      unitPrice: '1500',
      gstRate: '0',
    })
  })

  it('a half-typed line previews as zeros', () => {
    expect(previewLineOf({ ...emptyLine, quantity: 'x', unitPrice: '12.3.4' })).toEqual({
      quantity: 0,
      unitPrice: 0,
      discount: 0,
      gstRate: 0,
    })
  })

  it("today and the default due date are in India's zone", () => {
    // 20:00 UTC on 25 Nov is already 26 Nov in India.
    const late = new Date('2026-11-25T20:00:00Z')
    expect(todayIn('Asia/Kolkata', late)).toBe('2026-11-26')
    expect(defaultInvoiceValues(late).dueDate).toBe('2026-12-03')
  })
})
