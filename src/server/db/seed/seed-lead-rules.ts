import { normalizeMobilePhone } from '../../../shared/phone'
import {
  createLeadInput,
  leadSources,
  leadStatuses,
  type LeadSource,
} from '../../../shared/schemas/leads'

/**
 * The rules demo leads keep, checked from the rows alone (generated, or read back from a
 * seeded database): phones are distinct mobiles, names do not clash with patients, a lead is
 * converted exactly when it links a patient with its name and phone, last_contact_at is its
 * newest non-system communication, and the dashboard has something in every box.
 */

export interface SeedLead {
  id: string
  name: string
  phone: string
  email?: string | null
  status: string
  source: string
  priority?: string | null
  serviceInterest?: string | null
  campaign?: string | null
  notes?: string | null
  metaLeadId?: string | null
  metaFormId?: string | null
  assignedToUserId?: string | null
  patientId?: string | null
  lastContactAt?: Date | string | null
  createdAt: Date | string
}
export interface SeedCommunication {
  leadId: string | null
  type: string
  direction: string
  content: string
  createdByUserId?: string | null
  readAt?: Date | string | null
  createdAt: Date | string
}
export interface SeedLeadPatient {
  id: string
  name: string
  phone: string
}

const DAY_MS = 86_400_000
const time = (v: Date | string | null | undefined) => (v == null ? NaN : new Date(v).getTime())
const isMeta = (source: string) => source === 'meta-facebook' || source === 'meta-instagram'

function checkLead(
  l: SeedLead,
  own: readonly SeedCommunication[],
  patient: SeedLeadPatient | undefined,
  now: number,
): string[] {
  const problems: string[] = []
  const parsed = createLeadInput.safeParse({
    name: l.name,
    phone: l.phone,
    email: l.email,
    serviceInterest: l.serviceInterest,
    campaign: l.campaign,
    notes: l.notes,
    priority: l.priority,
  })
  if (!parsed.success) problems.push(`not accepted by the lead form: ${parsed.error.message}`)
  if (normalizeMobilePhone(l.phone) !== l.phone) problems.push(`phone ${l.phone} is no mobile`)
  const created = time(l.createdAt)
  if (!(created <= now && created >= now - 60 * DAY_MS)) problems.push('created outside 60 days')
  if ((l.status === 'converted') !== !!l.patientId) problems.push('converted ⇔ patient link')
  if (l.patientId && !patient) problems.push('links a patient the hospital does not have')
  if (patient && (patient.name !== l.name || patient.phone !== l.phone))
    problems.push(`name/phone differ from its patient ${patient.name} ${patient.phone}`)
  if (isMeta(l.source) !== !!l.metaLeadId || isMeta(l.source) !== !!l.metaFormId)
    problems.push('Meta ids on a lead that did not come from Meta, or missing')
  if (isMeta(l.source) && !/ – [A-Z][a-z]{2}$/.test(l.campaign ?? ''))
    problems.push(`Meta campaign '${l.campaign ?? ''}'`)
  const contacts = own.filter((c) => c.type !== 'system').map((c) => time(c.createdAt))
  const newest = contacts.length ? Math.max(...contacts) : null
  const last = l.lastContactAt == null ? null : time(l.lastContactAt)
  if (last !== newest) problems.push('last_contact_at is not its newest non-system communication')
  if (own.length > 6) problems.push(`${own.length} communications`)
  for (const c of own) {
    const at = time(c.createdAt)
    if (!(at >= created && at <= now)) problems.push(`communication at ${String(c.createdAt)}`)
    if (c.direction === 'outbound' && c.type !== 'system') {
      if (!l.assignedToUserId || c.createdByUserId !== l.assignedToUserId)
        problems.push('outbound communication not by the assignee')
    } else if (c.createdByUserId) problems.push(`${c.type} ${c.direction} has an author`)
    if (c.type === 'system' && !c.readAt) problems.push('unread system note')
    if (!c.content.trim() || /\{\w+\}/.test(c.content)) problems.push(`content '${c.content}'`)
  }
  if (l.status === 'new' && own.some((c) => c.direction === 'outbound'))
    problems.push('a new lead was already contacted')
  if (['contacted', 'follow-up', 'converted'].includes(l.status) && newest === null)
    problems.push(`${l.status} without any contact`)
  return problems
}

/**
 * Every rule the demo leads of one hospital keep; an empty list when all hold. `patients` are
 * all of the hospital's patients; `now` is when the leads were made.
 */
export function checkLeadRules(
  data: {
    leads: readonly SeedLead[]
    communications: readonly SeedCommunication[]
    patients: readonly SeedLeadPatient[]
  },
  opts: { now: Date; expected?: number },
): string[] {
  const now = opts.now.getTime()
  const { leads } = data
  const byLead = new Map<string, SeedCommunication[]>()
  for (const c of data.communications)
    if (c.leadId) byLead.set(c.leadId, [...(byLead.get(c.leadId) ?? []), c])
  const patients = new Map(data.patients.map((p) => [p.id, p]))
  const problems = leads.flatMap((l) =>
    checkLead(l, byLead.get(l.id) ?? [], patients.get(l.patientId ?? ''), now).map(
      (m) => `${l.name}: ${m}`,
    ),
  )
  const ids = new Set(leads.map((l) => l.id))
  if ([...byLead.keys()].some((id) => !ids.has(id))) problems.push('communications of no lead')
  const repeats = (values: string[], what: string) => {
    if (new Set(values).size < values.length) problems.push(`${what} repeat`)
  }
  repeats(
    leads.map((l) => l.phone),
    'phones',
  )
  repeats(
    leads.map((l) => l.name.toLowerCase()),
    'names',
  )
  repeats(
    leads.flatMap((l) => (l.metaLeadId ? [l.metaLeadId] : [])),
    'Meta lead ids',
  )
  repeats(
    leads.flatMap((l) => (l.patientId ? [l.patientId] : [])),
    'linked patients',
  )
  const patientNames = new Set(data.patients.map((p) => p.name.toLowerCase()))
  const patientPhones = new Set(data.patients.map((p) => p.phone))
  for (const l of leads.filter((x) => !x.patientId)) {
    if (patientNames.has(l.name.toLowerCase())) problems.push(`${l.name}: a patient's name`)
    if (patientPhones.has(l.phone)) problems.push(`${l.name}: a patient's phone`)
  }

  const count = (pred: (l: SeedLead) => boolean) => leads.filter(pred).length
  const expected = opts.expected ?? leads.length
  if (leads.length < expected * 0.95 || leads.length > expected * 1.05)
    problems.push(`${leads.length} leads, expected about ${expected}`)
  for (const s of leadStatuses) if (!count((l) => l.status === s)) problems.push(`no ${s} lead`)
  // 'phone' leads come from missed calls (seed/calls.ts), not from the lead generator.
  for (const s of leadSources.filter((x) => x !== 'phone'))
    if (!count((l) => l.source === s)) problems.push(`no ${s} lead`)
  const converted = count((l) => l.status === 'converted') / leads.length
  if (converted < 0.12 || converted > 0.22)
    problems.push(`${(converted * 100).toFixed(0)}% converted`)
  const meta = count((l) => isMeta(l.source as LeadSource)) / leads.length
  if (meta <= 0.5) problems.push(`only ${(meta * 100).toFixed(0)}% from Meta`)
  const idle = (l: SeedLead) => (now - time(l.lastContactAt ?? l.createdAt)) / DAY_MS
  const open = leads.filter((l) => l.status === 'contacted' || l.status === 'follow-up')
  if (!open.some((l) => idle(l) >= 3 && idle(l) < 6)) problems.push('no follow-up due')
  if (!open.some((l) => idle(l) >= 6)) problems.push('no follow-up overdue')
  if (!count((l) => !l.assignedToUserId)) problems.push('no unassigned lead')
  const unread = data.communications.filter((c) => c.direction === 'inbound' && !c.readAt).length
  if (unread < 1 || unread > 30) problems.push(`${unread} unread inbound messages`)
  const recent = count((l) => now - time(l.createdAt) < 7 * DAY_MS)
  const before = count(
    (l) => now - time(l.createdAt) >= 7 * DAY_MS && now - time(l.createdAt) < 14 * DAY_MS,
  )
  if (recent <= before) problems.push(`last week ${recent} leads, the week before ${before}`)
  const newOnes = leads.filter((l) => l.status === 'new')
  if (newOnes.filter((l) => now - time(l.createdAt) < 7 * DAY_MS).length < newOnes.length / 2)
    problems.push('new leads are mostly old')
  return problems
}
