import { desc, eq, inArray, or } from 'drizzle-orm'
import { type MessageChannel, messageChannels } from '../../../shared/messaging'
import type { Communication } from '../../../shared/schemas/leads'
import type { ContactState } from '../../../shared/schemas/messaging-send'
import { communications, leads } from '../../db/schema/leads'
import { patients } from '../../db/schema/patients'
import { withTenant } from '../../db/tenant'
import { notFound } from '../../http/app-error'
import { COMMUNICATIONS_SHOWN } from '../leads/communications.service'
import { toCommunication } from '../leads/leads.rows'
import { userNames } from '../leads/staff.service'
import type { TenantOptions } from '../patients/patients.service'
import { optedOut } from './consent'
import { addressFor, findContact, hospitalSending, lastInboundWhatsapp } from './rules'

/**
 * GET /api/messaging/contact-state: what the message dialog shows before a send (the WhatsApp
 * window, opt-outs per channel, which channels are on the sandbox).
 */
export async function contactState(
  opts: TenantOptions & { leadId?: string | undefined; patientId?: string | undefined },
): Promise<ContactState> {
  return withTenant(opts.db, opts, async (tx) => {
    const contact = await findContact(tx, opts.leadId ? { leadId: opts.leadId } : opts)
    const sending = await hospitalSending(tx, null)
    const result: ContactState = {
      whatsappWindowOpen: false,
      lastInboundWhatsappAt: null,
      optedOut: { whatsapp: false, sms: false, email: false },
      sandbox: {
        whatsapp: sending.providers.whatsapp === 'sandbox',
        sms: sending.providers.sms === 'sandbox',
        email: sending.providers.email === 'sandbox',
      },
    }
    for (const channel of messageChannels as readonly MessageChannel[]) {
      const target = addressFor(channel, contact)
      if ('skip' in target) continue
      result.optedOut[channel] = (await optedOut(tx, channel, [target.address])).has(target.address)
      if (channel === 'whatsapp') {
        const at = (await lastInboundWhatsapp(tx, [target.address])).get(target.address)
        result.whatsappWindowOpen = Boolean(at)
        result.lastInboundWhatsappAt = at ? new Date(at).toISOString() : null
      }
    }
    return result
  })
}

/**
 * GET /api/patients/:id/communications: the patient's messages and those of the lead it was
 * converted from, newest first (as the lead's list).
 */
export async function listPatientCommunications(
  opts: TenantOptions & { patientId: string },
): Promise<Communication[]> {
  const rows = await withTenant(opts.db, opts, async (tx) => {
    const [patient] = await tx
      .select({ id: patients.id })
      .from(patients)
      .where(eq(patients.id, opts.patientId))
    if (!patient) throw notFound('Patient')
    const fromLeads = tx.select({ id: leads.id }).from(leads).where(eq(leads.patientId, patient.id))
    return tx
      .select()
      .from(communications)
      .where(
        or(eq(communications.patientId, patient.id), inArray(communications.leadId, fromLeads)),
      )
      .orderBy(desc(communications.createdAt), desc(communications.id))
      .limit(COMMUNICATIONS_SHOWN)
  })
  const names = await userNames(
    opts.db,
    opts.hospitalId,
    rows.map((r) => r.createdByUserId),
  )
  return rows.map((r) => toCommunication(r, names))
}
