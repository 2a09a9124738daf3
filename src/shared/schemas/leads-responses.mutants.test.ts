import { describe, expect, it } from 'vitest'
import {
  communication,
  convertLeadResult,
  createCommunicationInput,
  createLeadResult,
  isServerMetadataKey,
  lead,
  leadSources,
  leadsPage,
  leadTrends,
  leadTrendsDay,
  staffList,
  staffMember,
  SERVER_METADATA_MESSAGE,
  stats,
} from './leads'

// Leads' response shapes and the metadata the server writes (mutation testing,
// docs/decisions/024); the request side is leads.mutants.test.ts.

const ID = '0b8a3a0e-4c1b-4a8f-9d3e-2f6f1c2b7a10'

const aLead = {
  id: ID,
  hospitalId: ID,
  name: 'Asha',
  email: null,
  phone: '+919876543210',
  status: 'new',
  source: 'manual',
  priority: 'medium',
  serviceInterest: null,
  campaign: null,
  notes: null,
  metaLeadId: null,
  metaFormId: null,
  assignedToUserId: null,
  assignedToName: null,
  patientId: null,
  lastContactAt: null,
  contactAttempts: 6,
  contactLimitExceeded: true,
  createdAt: '2026-11-25T10:00:00.000Z',
  updatedAt: '2026-11-25T10:00:00.000Z',
}

describe('response shapes', () => {
  it('describe what the API answers, field by field', () => {
    expect(lead.parse(aLead)).toEqual(aLead)
    expect(leadsPage.parse({ leads: [aLead], nextCursor: null })).toEqual({
      leads: [aLead],
      nextCursor: null,
    })
    expect(createLeadResult.parse({ lead: aLead, duplicate: true })).toEqual({
      lead: aLead,
      duplicate: true,
    })
    const patient = { id: ID, name: 'Asha', patientNumber: 'SMH-000001' }
    expect(convertLeadResult.parse({ lead: aLead, patient })).toEqual({ lead: aLead, patient })
    const note = {
      id: ID,
      leadId: ID,
      type: 'system',
      direction: 'inbound',
      content: 'Lead created',
      status: 'logged',
      metadata: { metaLeadId: '123' },
      createdByName: null,
      createdAt: '2026-11-25T10:00:00.000Z',
      patientId: null,
      contactAddress: null,
      provider: null,
      failureReason: null,
      sandbox: false,
      statusChangedAt: null,
    }
    expect(communication.parse(note)).toEqual(note)
    const member = { id: 'u1', name: 'Dr Rao', role: 'doctor' }
    expect(staffMember.parse(member)).toEqual(member)
    expect(staffList.parse({ staff: [member] })).toEqual({ staff: [member] })
  })

  it('describe the stats and trends the dashboard draws', () => {
    const s = {
      totalLeads: 10,
      newLeads: 2,
      followUps: 3,
      converted: 1,
      followUpDays: 3,
      trends: { totalChangePct: null, newToday: 1, conversionRate: 10, followUpsOverdue: 2 },
      unreadInbound: 0,
      bellCount: 2,
    }
    expect(stats.parse(s)).toEqual(s)
    const counts = Object.fromEntries(leadSources.map((source) => [source, 0]))
    const day = { date: '2026-11-25', counts }
    expect(leadTrendsDay.parse(day)).toEqual(day)
    expect(leadTrendsDay.safeParse({ date: '2026-11-25', counts: { manual: 0 } }).success).toBe(
      false,
    )
    expect(leadTrendsDay.safeParse({ ...day, counts: { ...counts, manual: -1 } }).success).toBe(
      false,
    )
    expect(leadTrendsDay.safeParse({ ...day, counts: { ...counts, manual: 0.5 } }).success).toBe(
      false,
    )
    const funnel = { new: 4, contacted: 3, followUp: 2, converted: 1 }
    const trends = { days: Array.from({ length: 30 }, () => day), funnel }
    expect(leadTrends.parse(trends)).toEqual(trends)
    expect(leadTrends.safeParse({ ...trends, days: trends.days.slice(1) }).success).toBe(false)
  })
})

describe('metadata the server writes', () => {
  it('is recognised in any spelling', () => {
    for (const key of [
      'metaLeadId',
      'meta_lead_id',
      'Meta-Lead-ID',
      'METAFORMID',
      'leadgenId',
      'form_id',
      'Source',
      'patient id',
      'patientNumber',
    ]) {
      expect(isServerMetadataKey(key), key).toBe(true)
    }
    for (const key of ['callOutcome', 'metaLead', 'reason', 'sourceUrl', '']) {
      expect(isServerMetadataKey(key), key).toBe(false)
    }
  })
  it('cannot be sent by staff, each key named', () => {
    const base = { leadId: ID, type: 'call', direction: 'outbound', content: 'Called' }
    const result = createCommunicationInput.safeParse({
      ...base,
      metadata: { outcome: 'busy', meta_lead_id: '1', PatientId: 'p' },
    })
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['metadata.meta_lead_id', SERVER_METADATA_MESSAGE],
      ['metadata.PatientId', SERVER_METADATA_MESSAGE],
    ])
    expect(SERVER_METADATA_MESSAGE).toBe('This metadata key is written by the server only')
    expect(
      createCommunicationInput.parse({ ...base, metadata: { outcome: 'busy' } }).metadata,
    ).toEqual({ outcome: 'busy' })
  })
})
