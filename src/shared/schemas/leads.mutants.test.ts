import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import {
  communicationDirections,
  communicationStatuses,
  communicationTypes,
  createCommunicationInput,
  createLeadInput,
  DEFAULT_FOLLOW_UP_DAYS,
  LEAD_TREND_DAYS,
  leadFunnelStageLabels,
  leadFunnelStages,
  leadPriorities,
  leadPriorityLabels,
  leadSourceLabels,
  leadSources,
  leadStatuses,
  leadStatusLabels,
  listLeadsQuery,
  manualLeadSources,
  SYSTEM_NOTE_MESSAGE,
  updateLeadInput,
} from './leads'

// Leads' request and response schemas (mutation testing, docs/decisions/024): the API's
// vocabulary, every bound at its edge, every message as the API answers it.

function messagesOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value)
  expect(result.success, `expected ${JSON.stringify(value)} to be refused`).toBe(false)
  return (result.error?.issues ?? []).map((i) => i.message)
}

const ID = '0b8a3a0e-4c1b-4a8f-9d3e-2f6f1c2b7a10'

describe('the leads vocabulary', () => {
  it('names the statuses, priorities, sources and communication kinds the database stores', () => {
    expect(leadStatuses).toEqual(['new', 'contacted', 'follow-up', 'converted', 'rejected'])
    expect(leadPriorities).toEqual(['high', 'medium', 'low'])
    expect(leadSources).toEqual([
      'meta-facebook',
      'meta-instagram',
      'google-ads',
      'referral',
      'manual',
      'walk-in',
      'csv-import',
      'phone',
    ])
    expect(manualLeadSources).toEqual(['manual', 'walk-in', 'referral', 'google-ads'])
    expect(communicationTypes).toEqual(['email', 'phone', 'call', 'whatsapp', 'sms', 'system'])
    expect(communicationDirections).toEqual(['inbound', 'outbound'])
    expect(communicationStatuses).toEqual([
      'queued',
      'sending',
      'sent',
      'delivered',
      'read',
      'failed',
      'received',
      'logged',
    ])
    expect(leadFunnelStages).toEqual(['new', 'contacted', 'followUp', 'converted'])
    expect(DEFAULT_FOLLOW_UP_DAYS).toBe(3)
    expect(LEAD_TREND_DAYS).toBe(30)
  })

  it('labels each value as the dashboard shows it', () => {
    expect(leadStatusLabels).toEqual({
      new: 'New',
      contacted: 'Contacted',
      'follow-up': 'Follow-up',
      converted: 'Converted',
      rejected: 'Rejected',
    })
    expect(leadPriorityLabels).toEqual({ high: 'High', medium: 'Medium', low: 'Low' })
    expect(leadSourceLabels).toEqual({
      'meta-facebook': 'Facebook',
      'meta-instagram': 'Instagram',
      'google-ads': 'Google Ads',
      referral: 'Referral',
      manual: 'Phone enquiry',
      'walk-in': 'Walk-in',
      'csv-import': 'CSV import',
      phone: 'Phone call',
    })
    expect(leadFunnelStageLabels).toEqual({
      new: 'New',
      contacted: 'Contacted',
      followUp: 'Follow-up',
      converted: 'Converted',
    })
  })
})

describe('createLeadInput', () => {
  it('fills priority and source, and normalises what it keeps', () => {
    expect(createLeadInput.parse({ name: ' Asha ', phone: '020 2550 1234' })).toEqual({
      name: 'Asha',
      phone: '+912025501234',
      email: null,
      serviceInterest: null,
      campaign: null,
      notes: null,
      priority: 'medium',
      source: 'manual',
    })
    const full = createLeadInput.parse({
      name: 'Asha',
      phone: '98765 43210',
      email: 'Asha@Clinic.IN',
      serviceInterest: ' IVF ',
      campaign: 'Diwali',
      notes: 'Call after 6',
      priority: 'high',
      source: 'walk-in',
      assignedToUserId: 'user-1',
    })
    expect(full).toMatchObject({
      email: 'asha@clinic.in',
      serviceInterest: 'IVF',
      priority: 'high',
      source: 'walk-in',
      assignedToUserId: 'user-1',
    })
    expect(
      createLeadInput.parse({ name: 'A', phone: '9876543210', assignedToUserId: null }),
    ).toHaveProperty('assignedToUserId', null)
  })

  it.each(manualLeadSources)('takes the hand-typed source %s', (source) => {
    expect(createLeadInput.parse({ name: 'A', phone: '9876543210', source }).source).toBe(source)
  })

  it('refuses sources only Meta or an import set, and other bad fields, with their messages', () => {
    const base = { name: 'A', phone: '9876543210' }
    for (const source of ['meta-facebook', 'meta-instagram', 'csv-import', 'other']) {
      expect(messagesOf(createLeadInput, { ...base, source })).toEqual([
        'Source must be manual, walk-in, referral or google-ads',
      ])
    }
    expect(messagesOf(createLeadInput, { ...base, priority: 'urgent' })).toEqual([
      'Priority must be high, medium or low',
    ])
    expect(messagesOf(createLeadInput, { ...base, assignedToUserId: 7 })).toEqual([
      'Must be a user id',
    ])
    expect(createLeadInput.parse({ ...base, assignedToUserId: 'u'.repeat(100) })).toHaveProperty(
      'assignedToUserId',
      'u'.repeat(100),
    )
    expect(createLeadInput.safeParse({ ...base, assignedToUserId: 'u'.repeat(101) }).success).toBe(
      false,
    )
    expect(messagesOf(createLeadInput, { name: 'A' })).toEqual(['Phone is required'])
    expect(messagesOf(createLeadInput, { name: 'A', phone: '12345' })).toEqual([
      'Enter a valid phone number, e.g. 98765 43210',
    ])
    expect(messagesOf(createLeadInput, { phone: '9876543210' })).toEqual(['Name is required'])
    expect(messagesOf(createLeadInput, { ...base, name: 'n'.repeat(201) })).toEqual([
      'Name must be at most 200 characters',
    ])
    expect(createLeadInput.safeParse({ ...base, status: 'new' }).success).toBe(false)
  })
})

describe('updateLeadInput', () => {
  it('changes only what is sent', () => {
    expect(updateLeadInput.parse({ status: 'contacted' })).toEqual({ status: 'contacted' })
    expect(updateLeadInput.parse({ priority: 'low', notes: '' })).toEqual({
      priority: 'low',
      notes: null,
    })
    for (const status of ['new', 'contacted', 'follow-up', 'rejected'])
      expect(updateLeadInput.parse({ status })).toEqual({ status })
  })
  it('leaves conversion to /convert, and needs one known field', () => {
    expect(messagesOf(updateLeadInput, { status: 'converted' })).toEqual([
      'Use Convert to patient to convert a lead',
    ])
    expect(messagesOf(updateLeadInput, { status: 'won' })).toEqual(['Unknown status'])
    expect(messagesOf(updateLeadInput, {})).toEqual(['Send at least one field to change'])
    expect(updateLeadInput.safeParse({ source: 'manual' }).success).toBe(false)
  })
})

describe('listLeadsQuery', () => {
  it("reads 'all' as no filter and keeps a real one", () => {
    expect(listLeadsQuery.parse({ status: 'all', source: 'all' })).toEqual({})
    expect(listLeadsQuery.parse({ status: 'follow-up', source: 'csv-import' })).toEqual({
      status: 'follow-up',
      source: 'csv-import',
    })
    expect(listLeadsQuery.parse({})).toEqual({})
  })
  it('names the allowed values when a filter is unknown', () => {
    expect(messagesOf(listLeadsQuery, { status: 'won' })).toEqual([
      'status must be all or one of: new, contacted, follow-up, converted, rejected',
    ])
    expect(messagesOf(listLeadsQuery, { source: 'tv' })).toEqual([
      'source must be all or one of: meta-facebook, meta-instagram, google-ads, referral, manual, walk-in, csv-import, phone',
    ])
  })
  it('trims search and assignee and bounds their length', () => {
    expect(
      listLeadsQuery.parse({ search: '  asha  ', assignee: ' me ', limit: '5', cursor: 'c' }),
    ).toEqual({ search: 'asha', assignee: 'me', limit: 5, cursor: 'c' })
    expect(listLeadsQuery.parse({ search: 's'.repeat(200), assignee: 'a'.repeat(100) })).toEqual({
      search: 's'.repeat(200),
      assignee: 'a'.repeat(100),
    })
    expect(messagesOf(listLeadsQuery, { search: 's'.repeat(201) })).toEqual([
      'search must be at most 200 characters',
    ])
    expect(messagesOf(listLeadsQuery, { assignee: 'a'.repeat(101) })).toEqual([
      'assignee is too long',
    ])
    expect(listLeadsQuery.safeParse({ sort: 'name' }).success).toBe(false)
  })
})

describe('createCommunicationInput', () => {
  const base = { leadId: ID, type: 'call', direction: 'outbound', content: ' Called, no answer ' }
  it('defaults status and metadata, and trims the content', () => {
    expect(createCommunicationInput.parse(base)).toEqual({
      ...base,
      content: 'Called, no answer',
      status: 'logged',
      metadata: {},
    })
    const metadata = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`k${i}`, i % 3 === 0 ? 'v' : i % 3 === 1 ? i : true]),
    )
    expect(createCommunicationInput.parse({ ...base, status: 'sent', metadata })).toMatchObject({
      status: 'sent',
      metadata,
    })
    expect(
      createCommunicationInput.parse({
        ...base,
        metadata: { ['k'.repeat(100)]: 'v'.repeat(1000) },
      }).metadata,
    ).toEqual({ ['k'.repeat(100)]: 'v'.repeat(1000) })
  })
  it('refuses each bad field with its message', () => {
    expect(messagesOf(createCommunicationInput, { ...base, leadId: 'x' })).toEqual([
      'leadId must be a valid id',
    ])
    expect(messagesOf(createCommunicationInput, { ...base, type: 'fax' })).toEqual([
      'Unknown communication type',
    ])
    expect(messagesOf(createCommunicationInput, { ...base, type: 'system' })).toEqual([
      'System notes are written by the server only',
    ])
    expect(SYSTEM_NOTE_MESSAGE).toBe('System notes are written by the server only')
    expect(messagesOf(createCommunicationInput, { ...base, direction: 'up' })).toEqual([
      'direction must be inbound or outbound',
    ])
    expect(messagesOf(createCommunicationInput, { ...base, status: 'lost' })).toEqual([
      'Unknown status',
    ])
    expect(messagesOf(createCommunicationInput, { ...base, content: '  ' })).toEqual([
      'Content is required',
    ])
    expect(messagesOf(createCommunicationInput, { ...base, content: 'c'.repeat(5001) })).toEqual([
      'Content must be at most 5000 characters',
    ])
    const tooMany = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']))
    expect(messagesOf(createCommunicationInput, { ...base, metadata: tooMany })).toEqual([
      'At most 20 metadata entries',
    ])
    for (const metadata of [
      { ['k'.repeat(101)]: 'v' },
      { k: 'v'.repeat(1001) },
      { k: null },
      { k: { nested: 1 } },
    ]) {
      expect(createCommunicationInput.safeParse({ ...base, metadata }).success).toBe(false)
    }
  })
})
