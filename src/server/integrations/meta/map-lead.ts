import { normalizePhone } from '../../../shared/phone'
import type { GraphLead } from './graph'

/** What a lead-ads record becomes (spec §3 "Lead mapping from a lead-ads record"). */
export interface MappedMetaLead {
  name: string
  phone: string
  email: string | null
  serviceInterest: string
  campaign: string | null
  source: 'meta-facebook' | 'meta-instagram'
  metaLeadId: string
  metaFormId: string | null
  /** When the person filled in the form (Meta's created_time), for priority scoring. */
  enquiredAt?: Date | null
}

/** Meta's created_time ('2026-11-20T10:00:00+0000'); anything unreadable is null. */
export function enquiryTime(value: unknown): Date | null {
  if (typeof value !== 'string') return null
  const date = new Date(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'))
  return Number.isNaN(date.getTime()) ? null : date
}

export type MapResult = { ok: true; lead: MappedMetaLead } | { ok: false; reason: string }

const MAX_TEXT = 500

function field(lead: GraphLead, name: string): string | null {
  const entry = Array.isArray(lead.field_data)
    ? lead.field_data.find((f) => f && typeof f === 'object' && f.name === name)
    : undefined
  const value = Array.isArray(entry?.values) ? entry.values[0] : undefined
  if (typeof value !== 'string') return null
  // No control characters (NUL would not even store); long answers are cut.
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const clean = value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').trim()
  return clean ? clean.slice(0, MAX_TEXT) : null
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim().slice(0, MAX_TEXT) : null
}

/**
 * full_name, else 'Lead ' + the id's last 6 characters; service_interest, else message, else
 * 'General Inquiry'; the phone normalised to E.164 (a lead without a valid one is an error);
 * meta-instagram when Meta says the lead came from Instagram, else meta-facebook.
 */
export function mapGraphLead(lead: GraphLead, formId: string | null = null): MapResult {
  const id = typeof lead.id === 'string' ? lead.id : ''
  if (!/^\d{1,40}$/.test(id)) return { ok: false, reason: 'lead without a valid id' }
  const rawPhone = field(lead, 'phone_number')
  const phone = rawPhone ? normalizePhone(rawPhone) : null
  if (!phone) return { ok: false, reason: `lead ${id}: no valid phone number` }
  const email = field(lead, 'email')
  const platform = (text(lead.platform) ?? '').toLowerCase()
  return {
    ok: true,
    lead: {
      name: field(lead, 'full_name') ?? `Lead ${id.slice(-6)}`,
      phone,
      email: email && /^[^\s@]+@[^\s@]+$/.test(email) ? email.toLowerCase() : null,
      serviceInterest:
        field(lead, 'service_interest') ?? field(lead, 'message') ?? 'General Inquiry',
      campaign: text(lead.campaign_name) ?? text(lead.ad_name),
      source: platform === 'ig' || platform === 'instagram' ? 'meta-instagram' : 'meta-facebook',
      metaLeadId: id,
      metaFormId: text(lead.form_id) ?? formId,
      enquiredAt: enquiryTime(lead.created_time),
    },
  }
}
