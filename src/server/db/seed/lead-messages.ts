import type { CommunicationStatus, LeadSource, LeadStatus } from '../../../shared/schemas/leads'
import type { communications } from '../schema/leads'
import {
  bookingMessages,
  bookingReplies,
  firstEnquiries,
  inboundReplies,
  outboundCalls,
  outboundSms,
  outboundWhatsApp,
  rejections,
  unansweredCalls,
} from './demo-leads-data'
import { DAY_MS, IST_OFFSET_MS, pick, type Rng, weighted } from './patients'

/**
 * The communications of one demo lead: a system note when an ad or an import brought it,
 * then calls, WhatsApp and SMS from the assignee and replies from the lead, in an order that
 * tells its status' story, moved into clinic hours where they fit. Its WhatsApp replies are
 * stored again through the webhook's path by the messaging seed (messaging-inbound.ts).
 */

type NewCommunication = typeof communications.$inferInsert & { leadId: string }
export const MINUTE = 60_000
export const HOUR = 60 * MINUTE

export interface Conversation {
  hospitalId: string
  leadId: string
  status: LeadStatus
  source: LeadSource
  createdAt: number
  /** When the last message to or from the lead should be (statuses other than new). */
  lastContact: number
  /** Converted leads: when the patient was registered. */
  convertedAt?: number
  assignee: string | null
  campaign: string | null
  metaLeadId: string | null
  metaFormId: string | null
  fill: (text: string) => string
  now: number
}

type Step = Pick<NewCommunication, 'type' | 'direction' | 'content' | 'status' | 'metadata'>

/** An outbound message: moved to 9:00-20:00 in India when that keeps it before `upper`. */
function inClinicHours(at: number, upper: number, rng: Rng): number {
  const minutes = Math.floor(((at + IST_OFFSET_MS) % DAY_MS) / MINUTE)
  let moved = at
  if (minutes < 9 * 60) moved = at + (9 * 60 - minutes + Math.floor(rng() * 90)) * MINUTE
  else if (minutes >= 20 * 60)
    moved = at + (24 * 60 - minutes + 9 * 60 + Math.floor(rng() * 90)) * MINUTE
  return moved <= upper ? moved : at
}

const sent = (rng: Rng): CommunicationStatus =>
  weighted(rng, [
    ['read', 50],
    ['delivered', 40],
    ['sent', 7],
    ['failed', 3],
  ] as const)

function stepMaker(rng: Rng, fill: (t: string) => string) {
  return {
    call: (): Step => ({
      type: 'call',
      direction: 'outbound',
      content: fill(pick(rng, outboundCalls)),
      status: 'logged',
      metadata: { durationSec: 60 + Math.floor(rng() * 540) },
    }),
    missed: (): Step => ({
      type: 'call',
      direction: 'outbound',
      content: pick(rng, unansweredCalls),
      status: 'logged',
      metadata: { durationSec: 0 },
    }),
    whatsapp: (texts = outboundWhatsApp): Step => ({
      type: 'whatsapp',
      direction: 'outbound',
      content: fill(pick(rng, texts)),
      status: sent(rng),
      metadata: {},
    }),
    sms: (): Step => ({
      type: 'sms',
      direction: 'outbound',
      content: fill(pick(rng, outboundSms)),
      status: rng() < 0.9 ? 'delivered' : 'sent',
      metadata: {},
    }),
    reply: (texts = inboundReplies): Step => ({
      type: 'whatsapp',
      direction: 'inbound',
      content: fill(pick(rng, texts)),
      status: 'received',
      metadata: {},
    }),
    rejected: (): Step => ({
      type: 'call',
      direction: 'outbound',
      content: pick(rng, rejections),
      status: 'logged',
      metadata: { durationSec: 30 + Math.floor(rng() * 120) },
    }),
  }
}

/** The messages after the first touch, by status (each `maybe` kept or dropped at random). */
function story(status: LeadStatus, rng: Rng, s: ReturnType<typeof stepMaker>): Step[] {
  const maybe = (p: number, step: () => Step) => (rng() < p ? [step()] : [])
  switch (status) {
    case 'new':
      return []
    case 'contacted':
      return rng() < 0.55
        ? [s.call(), ...maybe(0.3, () => s.whatsapp())]
        : [s.whatsapp(), ...maybe(0.6, () => s.reply())]
    case 'follow-up':
      return [
        ...maybe(0.5, s.missed),
        ...maybe(0.4, s.sms),
        s.call(),
        ...maybe(0.5, () => s.whatsapp()),
        ...maybe(0.5, () => s.reply()),
      ]
    case 'converted':
      return [
        s.call(),
        ...maybe(0.5, () => (rng() < 0.5 ? s.whatsapp() : s.reply())),
        s.whatsapp(bookingMessages),
        ...maybe(0.5, () => s.reply(bookingReplies)),
      ]
    case 'rejected':
      return [...maybe(0.4, s.missed), ...maybe(0.3, () => s.whatsapp()), s.rejected()]
  }
}

const platformOf: Partial<Record<LeadSource, string>> = {
  'meta-facebook': 'Facebook lead ad',
  'meta-instagram': 'Instagram lead ad',
  'google-ads': 'Google Ads lead form',
}

/** The lead's communications, oldest first, and its last contact (null when none). */
export function converse(
  c: Conversation,
  rng: Rng,
): { rows: NewCommunication[]; lastContactAt: Date | null } {
  const rows: NewCommunication[] = []
  const add = (step: Step, at: number, readAt: number | null) =>
    rows.push({
      ...step,
      hospitalId: c.hospitalId,
      leadId: c.leadId,
      createdByUserId: step.direction === 'outbound' && step.type !== 'system' ? c.assignee : null,
      readAt: readAt === null ? null : new Date(Math.min(readAt, c.now)),
      createdAt: new Date(at),
    })
  const system = (content: string, at: number, metadata: Record<string, unknown> = {}) =>
    add({ type: 'system', direction: 'inbound', content, status: 'logged', metadata }, at, at)
  const platform = platformOf[c.source]
  if (platform)
    system(
      `Lead received from ${platform}${c.campaign ? ` (${c.campaign})` : ''}`,
      c.createdAt,
      c.metaLeadId ? { leadgenId: c.metaLeadId, formId: c.metaFormId } : {},
    )
  if (c.source === 'csv-import')
    system(`Imported from CSV (${c.campaign ?? 'sign-up sheet'})`, c.createdAt)

  const s = stepMaker(rng, c.fill)
  const steps = story(c.status, rng, s)
  // A few new leads wrote first on WhatsApp (unread when recent: the bell counts them).
  if (c.status === 'new' && platform && rng() < 0.25) steps.push(s.reply(firstEnquiries))
  const last =
    c.status === 'new' ? Math.min(c.now, c.createdAt + (5 + rng() * 180) * MINUTE) : c.lastContact
  // Spread between a first answer (minutes to hours after the enquiry) and the last contact.
  const first = Math.min(last, c.createdAt + (5 + rng() * 240) * MINUTE)
  const times = steps
    .map((_, i) =>
      i === steps.length - 1 ? last : first + ((last - first) * (i + rng() * 0.8)) / steps.length,
    )
    .sort((a, b) => a - b)
  let newest: number | null = null
  steps.forEach((step, i) => {
    const upper =
      i + 1 < times.length ? (times[i + 1] as number) : Math.min(c.now, c.convertedAt ?? c.now)
    // Replies too: the demo's day is the clinic's (issue 40), a reply in its hours.
    const at = inClinicHours(times[i] as number, upper, rng)
    const recent = c.now - at < 2 * DAY_MS
    const unread = step.direction === 'inbound' && i === steps.length - 1 && recent && rng() < 0.35
    add(step, at, step.direction === 'inbound' && !unread ? at + (2 + rng() * 90) * MINUTE : null)
    newest = at
  })
  if (c.convertedAt !== undefined) system('Converted to patient', c.convertedAt)
  return { rows, lastContactAt: newest === null ? null : new Date(newest) }
}
