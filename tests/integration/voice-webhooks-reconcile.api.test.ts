import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { enqueue } from '../../src/server/jobs/queue'
import type { Worker } from '../../src/server/jobs/worker'
import { PROVIDER_LOST } from '../../src/server/modules/voice-webhooks/confirm'
import { RECONCILE_SWEEP_JOB } from '../../src/server/modules/voice-webhooks/reconcile-job'
import {
  callCommunications,
  FAST_VOICE,
  getCall,
  leadWithPhone,
  mobileEnding,
  setCallingHours,
  startCall,
  verifyMyPhone,
} from '../support/calls'
import { type FakeExotel, startFakeExotel } from '../support/fakes/exotel'
import { login } from '../support/login'
import { createTestApp, demoEmail, hospitalIdOf, type TestApp } from '../support/test-app'
import { useExotel, voiceJobsSettled, voiceWorker } from '../support/voice-webhooks'

// Issue 41: a call whose callback never came is reconciled from the provider's call details by
// a sweep (every 15 min in production) once it has been live for 2 hours; a call the provider
// does not know is closed as failed in plain words; one still live at the provider is left.
// Two workers (two instances) settle each call once.

const A = {
  accountSid: 'reconcile-a',
  apiKey: 'key-rc',
  apiToken: 'token-rc',
  exophone: '+918047110003',
}

let t: TestApp
let fake: FakeExotel
let workers: Worker[] = []
let admin: string
let hospitalA: string

beforeAll(async () => {
  fake = await startFakeExotel({
    [A.accountSid]: { apiKey: A.apiKey, apiToken: A.apiToken, exophones: [A.exophone] },
  })
  t = await createTestApp({ voice: { ...FAST_VOICE, exotelUrl: fake.url } })
  admin = await login(t.app, demoEmail('admin'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  await setCallingHours(t, hospitalA, '00:00', '00:00')
  await verifyMyPhone(t, admin, mobileEnding(1, 48))
  await useExotel(t, hospitalA, A)
  workers = [voiceWorker(t), voiceWorker(t)]
  for (const w of workers) await w.start()
})
afterAll(async () => {
  for (const w of workers) await w.stop()
  await t?.close()
  await fake?.close()
})

async function placed(answer: number) {
  const lead = await leadWithPhone(t, admin, 1)
  fake.outcomes.set(lead.phone, { answer })
  const call = await startCall(t, admin, { leadId: lead.id })
  const sent = fake.calls.at(-1)
  if (!sent || sent.params.CustomField !== call.id) throw new Error('the fake has no such call')
  return { call, sent }
}

const startedHoursAgo = (id: string, hours: number) =>
  t.db.execute(
    sql`update calls set started_at = now() - make_interval(hours => ${hours}) where id = ${id}`,
  )

async function sweep() {
  await enqueue(t.db, { name: RECONCILE_SWEEP_JOB, hospitalId: null })
  await enqueue(t.db, { name: RECONCILE_SWEEP_JOB, hospitalId: null })
  await voiceJobsSettled(t)
}

describe('reconciling calls whose callbacks never came', () => {
  it('settles a call live past two hours from the provider’s details, once', async () => {
    const { call, sent } = await placed(95)
    fake.finish(sent.sid)
    await startedHoursAgo(call.id, 3)
    await sweep()
    expect(await getCall(t, admin, call.id)).toMatchObject({
      status: 'completed',
      outcome: 'answered',
      durationSeconds: 95,
    })
    expect(await callCommunications(t, call.id)).toHaveLength(1)
  })

  it('leaves a recent call, and one the provider says is still live', async () => {
    const recent = await placed(10)
    fake.finish(recent.sent.sid)
    await sweep()
    expect((await getCall(t, admin, recent.call.id)).endedAt).toBeNull()

    await startedHoursAgo(recent.call.id, 3)
    await sweep()
    expect((await getCall(t, admin, recent.call.id)).status).toBe('completed')

    const live = await placed(10)
    await startedHoursAgo(live.call.id, 3)
    await sweep()
    expect((await getCall(t, admin, live.call.id)).endedAt).toBeNull()
    fake.finish(live.sent.sid)
    await sweep()
    expect((await getCall(t, admin, live.call.id)).status).toBe('completed')
  })

  it('fails a call the provider has no record of, with a plain reason', async () => {
    const { call, sent } = await placed(10)
    fake.calls.splice(fake.calls.indexOf(sent), 1)
    await startedHoursAgo(call.id, 3)
    await sweep()
    expect(await getCall(t, admin, call.id)).toMatchObject({
      status: 'failed',
      outcome: 'failed',
      failureReason: PROVIDER_LOST,
    })
    expect(await callCommunications(t, call.id)).toHaveLength(1)
  })
})
