import { sql } from 'drizzle-orm'
import type { AppDb } from '../../src/server/db/client'
import type { Database } from '../../src/server/db/client'
import { Worker } from '../../src/server/jobs/worker'
import { secretContext } from '../../src/server/modules/messaging-settings/fields'
import {
  type MessagingJobOptions,
  SANDBOX_DELIVER_JOB,
} from '../../src/server/modules/messaging/send-job'
import { SEND_JOB } from '../../src/server/modules/messaging/send.service'
import { encryptSecret } from '../../src/server/secrets/secrets'
import type { MessageChannel } from '../../src/shared/messaging'
import { queryRows } from './test-app'

/** Messaging send tests (tests/integration/messaging-send*.api.test.ts): rows and a worker. */

export const TWILIO_SID = `AC${'1'.repeat(32)}`
export const TWILIO_TOKEN = 'fake-twilio-auth-token'
export const TWILIO_FROM = '+14155550100'

/** Puts a hospital's SMS on Twilio (as Settings would store it), or back on the sandbox. */
export async function configureTwilioSms(db: AppDb, hospitalId: string, on = true): Promise<void> {
  const settings = { 'sms.accountSid': TWILIO_SID, 'sms.from': TWILIO_FROM }
  const secrets = {
    'sms.authToken': encryptSecret(TWILIO_TOKEN, secretContext(hospitalId, 'sms', 'authToken')),
  }
  await db.execute(sql`
    insert into messaging_connections (hospital_id, sms_provider, settings, secrets)
    values (${hospitalId}, ${on ? 'twilio' : 'sandbox'}, ${JSON.stringify(settings)}::jsonb,
      ${JSON.stringify(secrets)}::jsonb)
    on conflict (hospital_id) do update set sms_provider = excluded.sms_provider,
      settings = excluded.settings, secrets = excluded.secrets`)
}

/** Sets only the provider name of a channel (rules that depend on it, e.g. DLT for msg91). */
export async function setProvider(
  db: AppDb,
  hospitalId: string,
  channel: MessageChannel,
  provider: string,
): Promise<void> {
  const column = sql.raw(`${channel}_provider`)
  await db.execute(sql`
    insert into messaging_connections (hospital_id, ${column}) values (${hospitalId}, ${provider})
    on conflict (hospital_id) do update set ${column} = excluded.${column}`)
}

/** An inbound WhatsApp message from `phone`, `ageMs` ago (opens or not the 24-hour window). */
export async function inboundWhatsapp(
  db: AppDb,
  hospitalId: string,
  leadId: string,
  phone: string,
  ageMs = 60_000,
): Promise<void> {
  await db.execute(sql`
    insert into communications (hospital_id, lead_id, type, direction, content, status,
      contact_address, created_at)
    values (${hospitalId}, ${leadId}, 'whatsapp', 'inbound', 'Hello', 'received', ${phone},
      now() - ${`${ageMs} milliseconds`}::interval)`)
}

export async function optOut(
  db: AppDb,
  hospitalId: string,
  channel: MessageChannel,
  address: string,
): Promise<void> {
  await db.execute(sql`
    insert into consent_records (hospital_id, channel, contact_address, action, method)
    values (${hospitalId}, ${channel}, ${address}, 'opt_out', 'keyword')`)
}

let templateSeq = 0
export async function addTemplate(
  db: AppDb,
  hospitalId: string,
  t: {
    channel: MessageChannel
    body: string
    category: string
    approvalStatus?: string
    providerTemplateName?: string | null
    dltTemplateId?: string | null
  },
): Promise<string> {
  templateSeq += 1
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`insert into message_templates (hospital_id, name, channel, body, category,
          approval_status, provider_template_name, dlt_template_id)
        values (${hospitalId}, ${`Test template ${templateSeq}`}, ${t.channel}, ${t.body},
          ${t.category}, ${t.approvalStatus ?? 'not_required'}, ${t.providerTemplateName ?? null},
          ${t.dltTemplateId ?? null})
        returning id`,
  )
  return row?.id ?? ''
}

export interface StoredMessage {
  id: string
  status: string
  contact_address: string | null
  provider: string | null
  provider_message_id: string | null
  failure_code: string | null
  failure_reason: string | null
  sandbox: boolean
  send_after: Date | string | null
  batch_id: string | null
}

export async function storedMessage(db: AppDb, id: string): Promise<StoredMessage | undefined> {
  const [row] = await queryRows<StoredMessage>(
    db,
    sql`select id, status, contact_address, provider, provider_message_id, failure_code,
          failure_reason, sandbox, send_after, batch_id from communications where id = ${id}`,
  )
  return row
}

/** The send jobs of a message (payload id). */
export async function sendJobsOf(db: AppDb, id: string) {
  return queryRows<{ status: string; run_at: Date | string; attempts: number }>(
    db,
    sql`select status, run_at, attempts from jobs where name = ${SEND_JOB}
        and payload->>'id' = ${id} order by created_at`,
  )
}

/** Job options pointing every provider at `urls` (fakes), quick to retry and reconcile. */
export function jobOptions(overrides: Partial<MessagingJobOptions> = {}): MessagingJobOptions {
  return {
    urls: {
      twilio: 'http://127.0.0.1:9',
      msg91: 'http://127.0.0.1:9',
      sendgrid: 'http://127.0.0.1:9',
      metaGraph: 'http://127.0.0.1:9',
      metaGraphVersion: 'v21.0',
      sandboxDeliveryMs: 50,
    },
    baseUrl: 'http://127.0.0.1:9',
    perHospitalPerMinute: 100_000,
    reconcileWindowMs: 2_000,
    reconcileCheckMs: 100,
    ...overrides,
  }
}

/** A worker for the messaging jobs only, retrying after 50 ms. */
export function messagingWorker(database: Database): Worker {
  return new Worker({
    database,
    names: [SEND_JOB, SANDBOX_DELIVER_JOB],
    backoff: () => 50,
    pollMs: 20,
    leaseMs: 5_000,
  })
}
