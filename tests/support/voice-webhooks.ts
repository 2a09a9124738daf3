import { sql } from 'drizzle-orm'
import type { AddressInfo } from 'node:net'
import { expect } from 'vitest'
import { Worker } from '../../src/server/jobs/worker'
import { voiceSecretContext } from '../../src/server/modules/calls/voice-registry'
import { VOICE_CALLBACK_JOB } from '../../src/server/modules/voice-webhooks/callback-job'
import { statusCallbackUrl } from '../../src/server/modules/voice-webhooks/callback-urls'
import {
  RECONCILE_JOB,
  RECONCILE_SWEEP_JOB,
} from '../../src/server/modules/voice-webhooks/reconcile-job'
import { encryptSecret } from '../../src/server/secrets/secrets'
import type { Call } from '../../src/shared/schemas/calls'
import { getCall } from './calls'
import type { FakeExotelCall } from './fakes/exotel'
import type { FakeTwilioCall } from './fakes/twilio-voice'
import { waitFor } from './jobs'
import { queryRows, type TestApp } from './test-app'

/** Voice webhooks' test support (tests/integration/voice-webhooks-*.api.test.ts, issue 41). */

/** Listens on a free local port so the fakes can post their callbacks; answers the base URL. */
export async function listenLocally(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = t.app.server.address() as AddressInfo
  return `http://127.0.0.1:${port}`
}

export async function useExotel(
  t: TestApp,
  hospitalId: string,
  a: { accountSid: string; apiKey: string; apiToken: string; exophone: string },
) {
  const secrets = {
    apiToken: encryptSecret(a.apiToken, voiceSecretContext(hospitalId, 'apiToken')),
  }
  const settings = { accountSid: a.accountSid, apiKey: a.apiKey }
  await saveVoice(t, hospitalId, 'exotel', settings, secrets, a.exophone)
}

export async function useTwilio(
  t: TestApp,
  hospitalId: string,
  a: { accountSid: string; authToken: string; number: string },
) {
  const secrets = {
    authToken: encryptSecret(a.authToken, voiceSecretContext(hospitalId, 'authToken')),
  }
  await saveVoice(t, hospitalId, 'twilio', { accountSid: a.accountSid }, secrets, a.number)
}

async function saveVoice(
  t: TestApp,
  hospitalId: string,
  provider: 'exotel' | 'twilio',
  settings: Record<string, string>,
  secrets: Record<string, string>,
  callerId: string,
) {
  await t.db.execute(sql`
    insert into voice_settings (hospital_id, provider, settings, secrets, caller_id, region,
      calling_hours_start, calling_hours_end)
    values (${hospitalId}, ${provider}, ${JSON.stringify(settings)}::jsonb,
      ${JSON.stringify(secrets)}::jsonb, ${callerId}, 'mumbai', '00:00', '00:00')
    on conflict (hospital_id) do update set provider = excluded.provider,
      settings = excluded.settings, secrets = excluded.secrets, caller_id = excluded.caller_id,
      region = excluded.region`)
}

export async function callbackToken(t: TestApp, hospitalId: string): Promise<string> {
  const [row] = await queryRows<{ callback_token: string }>(
    t.db,
    sql`select callback_token from voice_settings where hospital_id = ${hospitalId}`,
  )
  if (!row) throw new Error('no voice settings')
  return row.callback_token
}

/**
 * Points a placed call's callbacks at this app's listening port. startCall gave the provider
 * the URL over the request's origin (inject's localhost:80); its path and query (the hospital
 * and, for Exotel, the token) must be this one's: only the origin is swapped.
 */
export function wireExotel(call: FakeExotelCall, url: string | undefined): void {
  if (!url) throw new Error('no callback URL')
  expect(pathAndQuery(call.statusCallback), 'the StatusCallback startCall sent').toBe(
    pathAndQuery(url),
  )
  expect(call.events).toEqual(['terminal', 'answered'])
  expect(call.json).toBe(true)
  call.statusCallback = url
  call.json = true
}

export function wireTwilio(call: FakeTwilioCall, url: string | undefined): void {
  if (!url) throw new Error('no callback URL')
  expect(pathAndQuery(call.statusCallback), 'the StatusCallback startCall sent').toBe(
    pathAndQuery(url),
  )
  expect(pathAndQuery(call.dial?.statusCallback ?? null)).toBe(pathAndQuery(`${url}?leg=customer`))
  expect(call.events).toEqual(['initiated', 'ringing', 'answered', 'completed'])
  call.statusCallback = url
  if (call.dial) call.dial.statusCallback = `${url}?leg=customer`
}

const pathAndQuery = (url: string | null) => {
  if (!url) return null
  const parsed = new URL(url)
  return `${parsed.pathname}${parsed.search}`
}

export { statusCallbackUrl }

export function voiceWorker(t: TestApp): Worker {
  return new Worker({
    database: t.database,
    names: [VOICE_CALLBACK_JOB, RECONCILE_SWEEP_JOB, RECONCILE_JOB],
    backoff: () => 30,
    pollMs: 20,
    leaseMs: 5_000,
  })
}

/** Waits until no voice job of this database is queued, running or waiting for a retry. */
export async function voiceJobsSettled(t: TestApp): Promise<void> {
  await waitFor(
    async () => {
      const [row] = await queryRows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from jobs where name like 'voice.%'
            and status in ('queued', 'running', 'failed')`,
      )
      return row?.n === 0
    },
    'voice jobs to settle',
    20_000,
  )
}

export async function endedCall(t: TestApp, cookie: string, id: string): Promise<Call> {
  await voiceJobsSettled(t)
  const call = await getCall(t, cookie, id)
  expect(call.endedAt, `call ${id} has ended`).not.toBeNull()
  return call
}
