import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import {
  csvLine,
  guessMapping,
  IMPORT_FAILED_MESSAGE,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_FIELD_CHARS,
  importFieldLabels,
  importFields,
  importMapping,
  importProgress,
  importStarted,
  importStatuses,
  neutraliseCell,
} from './lead-import'

// The CSV import's shared pieces at their edges (mutation testing, docs/decisions/024).

function messagesOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value)
  expect(result.success, `expected ${JSON.stringify(value)} to be refused`).toBe(false)
  return (result.error?.issues ?? []).map((i) => i.message)
}

describe('the import fields and limits', () => {
  it('names the fields as the mapping dialog shows them', () => {
    expect(importFields).toEqual([
      'name',
      'phone',
      'email',
      'serviceInterest',
      'campaign',
      'notes',
      'priority',
      'sourceLabel',
    ])
    expect(importFieldLabels).toEqual({
      name: 'Name',
      phone: 'Phone',
      email: 'Email',
      serviceInterest: 'Service interest',
      campaign: 'Campaign',
      notes: 'Notes',
      priority: 'Priority',
      sourceLabel: 'Source label',
    })
    expect(importStatuses).toEqual(['queued', 'running', 'done', 'failed'])
  })
  it('caps a file at 50 MB and a field at 10,000 characters', () => {
    expect(IMPORT_MAX_BYTES).toBe(52_428_800)
    expect(IMPORT_MAX_FIELD_CHARS).toBe(10_000)
  })
  it('says what a failed import shows when it cannot say more', () => {
    expect(IMPORT_FAILED_MESSAGE).toBe(
      'The import failed. Try again, or contact support if it keeps failing.',
    )
  })
})

describe('importMapping', () => {
  it('trims column names and takes up to 200 characters', () => {
    expect(importMapping.parse({ name: ' Name ', phone: 'p'.repeat(200), email: 'Email' })).toEqual(
      { name: 'Name', phone: 'p'.repeat(200), email: 'Email' },
    )
  })
  it('says which column to pick, and refuses long names', () => {
    expect(messagesOf(importMapping, { name: '  ', phone: 'Phone' })).toEqual(['Pick a column'])
    expect(messagesOf(importMapping, { name: 'Name', phone: 'p'.repeat(201) })).toEqual([
      'Column names are at most 200 characters',
    ])
  })
})

describe('import answers', () => {
  it('describe the job and its progress', () => {
    expect(importStarted.parse({ jobId: 'j1' })).toEqual({ jobId: 'j1' })
    const progress = {
      status: 'running',
      done: 10,
      total: 20,
      created: 8,
      merged: 1,
      failed: 1,
      message: null,
    }
    expect(importProgress.parse(progress)).toEqual(progress)
    for (const status of importStatuses) {
      expect(importProgress.parse({ ...progress, status }).status).toBe(status)
    }
  })
})

describe('guessMapping', () => {
  it.each([
    ['name', 'FullName'],
    ['name', 'full name'],
    ['name', 'Lead_Name'],
    ['name', 'LeadName'],
    ['name', 'Patient Name'],
    ['name', 'PatientName'],
    ['name', 'Customer Name'],
    ['name', 'CustomerName'],
    ['name', 'Contact Name'],
    ['name', 'ContactName'],
    ['phone', 'Phone'],
    ['phone', 'PhoneNumber'],
    ['phone', 'Phone No'],
    ['phone', 'Phone No.'],
    ['phone', 'PhoneNo'],
    ['phone', 'Mobile Number'],
    ['phone', 'MobileNumber'],
    ['phone', 'Mobile No'],
    ['phone', 'MobileNo.'],
    ['phone', 'Contact Number'],
    ['phone', 'ContactNumber'],
    ['phone', 'Contact No'],
    ['phone', 'Contact No.'],
    ['phone', 'WhatsApp'],
    ['phone', 'Cell'],
    ['phone', 'Tel'],
    ['phone', 'Telephone'],
    ['email', 'Email'],
    ['email', 'E-mail'],
    ['email', 'EmailAddress'],
    ['email', 'Email Address'],
    ['email', 'Email ID'],
    ['email', 'EmailId'],
    ['email', 'E-mail Id'],
    ['email', 'E-mailId'],
    ['serviceInterest', 'Service'],
    ['serviceInterest', 'ServiceInterest'],
    ['serviceInterest', 'Service Interest'],
    ['serviceInterest', 'Interest'],
    ['serviceInterest', 'Department'],
    ['serviceInterest', 'Enquiry For'],
    ['serviceInterest', 'EnquiryFor'],
    ['campaign', 'Campaign'],
    ['campaign', 'CampaignName'],
    ['campaign', 'Ad'],
    ['campaign', 'Ad Name'],
    ['campaign', 'AdName'],
    ['notes', 'Note'],
    ['notes', 'Notes'],
    ['notes', 'Message'],
    ['notes', 'Comment'],
    ['notes', 'Comments'],
    ['notes', 'Remark'],
    ['notes', 'Details'],
    ['priority', 'Priority'],
    ['sourceLabel', 'Source'],
    ['sourceLabel', 'LeadSource'],
    ['sourceLabel', 'Channel'],
    ['sourceLabel', 'Platform'],
  ])('maps %s from the header %j', (field, header) => {
    expect(guessMapping([header])).toStrictEqual({ [field]: header })
  })

  it.each([
    'Nickname',
    'Name 2',
    'Father Name',
    'Alt Phone',
    'Phone 2',
    'Phone Nos',
    'Mobile Phone',
    'Email Sent',
    'Secondary Email',
    'Service Date',
    'Self Service',
    'Campaign Id',
    'Old Campaign',
    'Adress',
    'Ads',
    'Notes Old',
    'Priority Level',
    'Source Url',
    'Resource',
    'Telex',
    'Cellar',
    'Emails',
    'Old Notes',
    'Lead Priority',
    'Other Details',
  ])('maps nothing from the header %j', (header) => {
    expect(guessMapping([header])).toStrictEqual({})
  })

  it('gives each header to one field only, the first that claims it', () => {
    expect(guessMapping(['Name', 'Name'])).toEqual({ name: 'Name' })
    expect(guessMapping(['Mobile', 'Phone'])).toEqual({ phone: 'Mobile' })
  })
})

describe('exported CSV', () => {
  it.each(['=1+1', '+91 98765', '-5', '@SUM(A1)', '\tx', '\rx'])(
    'neutralises %j, which a spreadsheet would run',
    (cell) => {
      expect(neutraliseCell(cell)).toBe(`'${cell}`)
    },
  )
  it.each(['a=1', 'x+y', '9-5', 'a@b.in', 'plain', ''])('leaves %j as it is', (cell) => {
    expect(neutraliseCell(cell)).toBe(cell)
  })
  it('quotes only the cells that need it', () => {
    expect(csvLine(['a', 'b c', 'x"y', 'p,q', 'l\nm', 'r\rs'])).toBe(
      'a,b c,"x""y","p,q","l\nm","r\rs"\r\n',
    )
    expect(csvLine([])).toBe('\r\n')
  })
})
