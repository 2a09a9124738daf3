import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { enqueue } from '../../src/server/jobs/queue'
import { Worker } from '../../src/server/jobs/worker'
import { SANDBOX_STEP_JOB, SETTLE_UNPLACED_JOB } from '../../src/server/modules/calls/call-jobs'
import {
  pruneRecordings,
  RECORDING_FETCH_JOB,
  RECORDING_NOTES,
} from '../../src/server/modules/calls/recording-jobs'
import {
  setRecordingTrustedOrigins,
  silentWav,
} from '../../src/server/modules/calls/recording-source'
import { exportDir } from '../../src/server/modules/data-export/export-files'
import { VOICE_CALLBACK_JOB } from '../../src/server/modules/voice-webhooks/callback-job'
import { getStorage, resetStorageForTests } from '../../src/server/storage/storage'
import type { Call } from '../../src/shared/schemas/calls'
import { storageUsage } from '../../src/shared/schemas/storage'
import {
  ended,
  FAST_VOICE,
  getCall,
  leadWithPhone,
  patientWithPhone,
  send,
  setCallingHours,
  startCall,
  verifyMyPhone,
} from '../support/calls'
import { type FakeExotel, startFakeExotel } from '../support/fakes/exotel'
import {
  type RecordingHost,
  startRecordingHost,
  startTwilioRecordings,
  type TwilioRecordings,
} from '../support/fakes/recording-host'
import { waitFor } from '../support/jobs'
import { browserHeaders, login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  TEST_PASSWORD,
  type TestApp,
} from '../support/test-app'
import {
  callbackToken,
  listenLocally,
  statusCallbackUrl,
  useExotel,
  useTwilio,
  wireExotel,
} from '../support/voice-webhooks'

// Issue 41, recordings: with recording on, an answered call's recording is copied into the
// storage module (the sandbox's a few seconds of silence; Exotel's from its RecordingUrl with
// the account's Basic auth), counted in the quota, streamed only to calls:recordings staff,
// and deleted with erasure and after the retention period.

const B = {
  accountSid: 'smile-rec',
  apiKey: 'key-rec-b',
  apiToken: 'token-rec-b',
  exophone: '+918047110009',
}
const TW = { accountSid: `AC${'7'.repeat(32)}`, authToken: 'twilio-rec-token' }
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`

const saved = {
  DATA_DIR: process.env.DATA_DIR,
  STORAGE_QUOTA_MB_ENTERPRISE: process.env.STORAGE_QUOTA_MB_ENTERPRISE,
}
let dataDir: string
let t: TestApp
let fake: FakeExotel
let host: RecordingHost
let twilio: TwilioRecordings
let worker: Worker
let admin: string
let doctor: string
let receptionist: string
let adminB: string
let hospitalA: string
let hospitalB: string
let urlB: string

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'arogya-recordings-'))
  process.env.DATA_DIR = dataDir
  resetStorageForTests()
  fake = await startFakeExotel({
    [B.accountSid]: { apiKey: B.apiKey, apiToken: B.apiToken, exophones: [B.exophone] },
  })
  host = await startRecordingHost(basic(B.apiKey, B.apiToken))
  twilio = await startTwilioRecordings(TW.accountSid, TW.authToken)
  t = await createTestApp({
    voice: { ...FAST_VOICE, exotelUrl: fake.url, twilioUrl: twilio.url },
  })
  setRecordingTrustedOrigins(t.db, [host.url, twilio.signedOrigin])
  const base = await listenLocally(t)
  admin = await login(t.app, demoEmail('admin'))
  doctor = await login(t.app, demoEmail('doctor'))
  receptionist = await login(t.app, demoEmail('receptionist'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  hospitalB = await hospitalIdOf(t.db, 'smiledental')
  await setCallingHours(t, hospitalA, '00:00', '00:00')
  await setCallingHours(t, hospitalB, '00:00', '00:00')
  await verifyMyPhone(t, admin)
  await verifyMyPhone(t, adminB)
  await useExotel(t, hospitalB, B)
  urlB =
    statusCallbackUrl({
      kind: 'exotel',
      hospitalId: hospitalB,
      callbackToken: await callbackToken(t, hospitalB),
      publicBase: base,
    }) ?? ''
  worker = new Worker({
    database: t.database,
    names: [SANDBOX_STEP_JOB, SETTLE_UNPLACED_JOB, VOICE_CALLBACK_JOB, RECORDING_FETCH_JOB],
    backoff: () => 30,
    pollMs: 20,
    leaseMs: 5_000,
  })
  await worker.start()
}, 120_000)

afterAll(async () => {
  await worker?.stop()
  await t?.close()
  await fake?.close()
  await host?.close()
  await twilio?.close()
  process.env.DATA_DIR = saved.DATA_DIR
  if (saved.DATA_DIR === undefined) delete process.env.DATA_DIR
  process.env.STORAGE_QUOTA_MB_ENTERPRISE = saved.STORAGE_QUOTA_MB_ENTERPRISE
  if (saved.STORAGE_QUOTA_MB_ENTERPRISE === undefined)
    delete process.env.STORAGE_QUOTA_MB_ENTERPRISE
  resetStorageForTests()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

async function recording(hospitalId: string, on: boolean) {
  await t.db.execute(
    sql`update voice_settings set recording_enabled = ${on} where hospital_id = ${hospitalId}`,
  )
}

/** Waits until the recording job has finished with the call: kept, or a note saying why not. */
async function settled(cookie: string, id: string): Promise<Call> {
  return waitFor(
    async () => {
      const c = await getCall(t, cookie, id)
      return c.hasRecording || c.recordingNote ? c : null
    },
    `call ${id}'s recording`,
    20_000,
  )
}

async function keyOf(id: string): Promise<{ key: string | null; bytes: number | null }> {
  const [row] = await queryRows<{ key: string | null; bytes: string | null }>(
    t.db,
    sql`select recording_key as key, recording_bytes as bytes from calls where id = ${id}`,
  )
  return { key: row?.key ?? null, bytes: row?.bytes === null ? null : Number(row?.bytes) }
}

async function exists(key: string): Promise<boolean> {
  try {
    const stream = await getStorage().get(key)
    stream.destroy()
    return true
  } catch {
    return false
  }
}

async function recordingsBytes(cookie: string): Promise<number> {
  const res = await send(t.app, cookie, 'GET', '/api/storage/usage')
  expect(res.statusCode, res.body).toBe(200)
  const usage = storageUsage.parse(res.json())
  return usage.kinds.find((k) => k.kind === 'recordings')?.bytes ?? -1
}

/** A sandbox call to a new answered lead (or the patient), ended, its recording settled. */
async function sandboxCall(subject?: { patientId: string }): Promise<Call> {
  const lead = subject ? null : await leadWithPhone(t, admin, 1)
  const call = await startCall(t, admin, subject ?? { leadId: lead!.id })
  await ended(t, admin, call.id)
  return settled(admin, call.id)
}

const WAV = silentWav()

describe('sandbox recordings', () => {
  it('with recording off, an answered call has no recording and no job', async () => {
    await recording(hospitalA, false)
    const lead = await leadWithPhone(t, admin, 1)
    const call = await startCall(t, admin, { leadId: lead.id })
    const done = await ended(t, admin, call.id)
    expect(done.outcome).toBe('answered')
    const jobs = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from jobs where name = ${RECORDING_FETCH_JOB}
          and payload->>'callId' = ${call.id}`,
    )
    expect(jobs[0]?.n).toBe(0)
    expect((await getCall(t, admin, call.id)).hasRecording).toBe(false)
  })

  it('stores the recording, counts it in the quota, streams it to admins and doctors only', async () => {
    await recording(hospitalA, true)
    const before = await recordingsBytes(admin)
    const call = await sandboxCall()
    expect(call).toMatchObject({ hasRecording: true, recordingNote: null })
    const stored = await keyOf(call.id)
    expect(stored.key).toMatch(new RegExp(`^h/${hospitalA}/recordings/${call.id}-`))
    expect(stored.bytes).toBe(WAV.length)
    expect(await recordingsBytes(admin)).toBe(before + WAV.length)

    for (const cookie of [admin, doctor]) {
      const res = await send(t.app, cookie, 'GET', `/api/calls/${call.id}/recording`)
      expect(res.statusCode, res.body).toBe(200)
      expect(res.headers['content-type']).toBe('audio/wav')
      expect(res.headers['cache-control']).toBe('private, no-store')
      expect(res.rawPayload.equals(WAV)).toBe(true)
    }
    const refused = await send(t.app, receptionist, 'GET', `/api/calls/${call.id}/recording`)
    expect(refused.statusCode).toBe(403)
    const other = await send(t.app, adminB, 'GET', `/api/calls/${call.id}/recording`)
    expect(other.statusCode).toBe(404)
    const bad = await send(t.app, admin, 'GET', '/api/calls/not-a-uuid/recording')
    expect(bad.statusCode).toBe(400)
    const none = await send(
      t.app,
      admin,
      'GET',
      '/api/calls/00000000-0000-4000-8000-000000000000/recording',
    )
    expect(none.statusCode).toBe(404)
  })

  it('over the quota, the recording is not kept and the call says why', async () => {
    await recording(hospitalA, true)
    const dir = exportDir(hospitalA)
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'filler.bin'), Buffer.alloc(1024 * 1024))
    process.env.STORAGE_QUOTA_MB_ENTERPRISE = '1'
    try {
      const call = await sandboxCall()
      expect(call).toMatchObject({ hasRecording: false, recordingNote: RECORDING_NOTES.quota })
      expect((await keyOf(call.id)).key).toBeNull()
    } finally {
      delete process.env.STORAGE_QUOTA_MB_ENTERPRISE
      await rm(join(dir, 'filler.bin'), { force: true })
    }
  })

  it('erasing the patient deletes the recording file', async () => {
    await recording(hospitalA, true)
    const patientId = await patientWithPhone(t, admin, 1)
    const call = await sandboxCall({ patientId })
    const { key } = await keyOf(call.id)
    expect(key).not.toBeNull()
    expect(await exists(key!)).toBe(true)
    const [p] = await queryRows<{ name: string }>(
      t.db,
      sql`select name from patients where id = ${patientId}`,
    )
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/patients/${patientId}/erase`,
      headers: browserHeaders(admin),
      payload: JSON.stringify({ confirmName: p?.name }),
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(await keyOf(call.id)).toEqual({ key: null, bytes: null })
    expect(await exists(key!)).toBe(false)
    const gone = await send(t.app, admin, 'GET', `/api/calls/${call.id}/recording`)
    expect(gone.statusCode).toBe(404)
  })

  it('the retention job deletes recordings older than the retention period', async () => {
    await recording(hospitalA, true)
    const old = await sandboxCall()
    const fresh = await sandboxCall()
    const oldKey = (await keyOf(old.id)).key!
    const freshKey = (await keyOf(fresh.id)).key!
    await t.db.execute(
      sql`update calls set ended_at = now() - interval '200 days' where id = ${old.id}`,
    )
    const result = await pruneRecordings(t.db, { days: 180 })
    expect(result.removed).toBeGreaterThanOrEqual(1)
    expect(await keyOf(old.id)).toEqual({ key: null, bytes: null })
    expect(await exists(oldKey)).toBe(false)
    expect((await keyOf(fresh.id)).key).toBe(freshKey)
    expect(await exists(freshKey)).toBe(true)
  })
})

describe('Exotel recordings', () => {
  async function exotelCall(recordingUrl: (sid: string) => string) {
    await recording(hospitalB, true)
    const lead = await leadWithPhone(t, adminB, 1)
    fake.outcomes.set(lead.phone, { answer: 30 })
    const call = await startCall(t, adminB, { leadId: lead.id })
    const sent = fake.calls.at(-1)
    if (!sent || sent.params.CustomField !== call.id) throw new Error('the fake has no such call')
    expect(sent.params.Record).toBe('true')
    wireExotel(sent, urlB)
    fake.finish(sent.sid)
    sent.recordingUrl = recordingUrl(sent.sid)
    expect(await fake.sendStatusCallback(sent.sid)).toEqual([200, 200])
    // The job waits for the provider to publish the file; bring it forward.
    await waitFor(
      async () => {
        const rows = await queryRows<{ n: number }>(
          t.db,
          sql`update jobs set run_at = now() where name = ${RECORDING_FETCH_JOB}
              and payload->>'callId' = ${call.id} and status = 'queued' returning 1 as n`,
        )
        return rows.length > 0
      },
      'the recording job',
      20_000,
    )
    return { call: await settled(adminB, call.id), sid: sent.sid }
  }

  it('fetches RecordingUrl with the account’s Basic auth and streams it', async () => {
    const mp3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(20_000, 7)])
    const { call, sid } = await exotelCall((sid) => {
      host.files.set(`/${B.accountSid}/${sid}.mp3`, mp3)
      return `${host.url}/${B.accountSid}/${sid}.mp3`
    })
    expect(call).toMatchObject({ hasRecording: true, recordingNote: null })
    const asked = host.requests.filter((r) => r.path.includes(sid))
    expect(asked.length).toBeGreaterThan(0)
    expect(asked.every((r) => r.authorization === basic(B.apiKey, B.apiToken))).toBe(true)
    const res = await send(t.app, adminB, 'GET', `/api/calls/${call.id}/recording`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toBe('audio/mpeg')
    expect(res.rawPayload.equals(mp3)).toBe(true)
    const other = await send(t.app, admin, 'GET', `/api/calls/${call.id}/recording`)
    expect(other.statusCode).toBe(404)
  })

  it('a RecordingUrl on a host the guard refuses is not fetched, and the call says so', async () => {
    const { call } = await exotelCall((sid) => `http://127.0.0.2:9/${sid}.mp3`)
    expect(call).toMatchObject({ hasRecording: false, recordingNote: RECORDING_NOTES.refused })
  })

  it('fetches a Twilio call’s recording media; the signed redirect gets no credentials', async () => {
    await useTwilio(t, hospitalB, { ...TW, number: '+918047110010' })
    await recording(hospitalB, true)
    const lead = await leadWithPhone(t, adminB, 2)
    const callSid = `CA${randomUUID().replace(/-/g, '')}`
    const [row] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into calls (hospital_id, lead_id, user_id, provider, provider_call_id,
            customer_phone, status, outcome, answered_at, ended_at, duration_seconds)
          values (${hospitalB}, ${lead.id}, 'twilio-test-user', 'twilio', ${callSid},
            '+919845012345', 'completed', 'answered', now(), now(), 30)
          returning id`,
    )
    const mp3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(12_000, 3)])
    const recordingSid = `RE${randomUUID().replace(/-/g, '')}`
    twilio.byCall.set(callSid, [recordingSid, mp3])
    await enqueue(t.db, {
      name: RECORDING_FETCH_JOB,
      hospitalId: hospitalB,
      payload: { callId: row!.id },
    })
    const call = await settled(adminB, row!.id)
    expect(call).toMatchObject({ hasRecording: true, recordingNote: null })
    const auth = basic(TW.accountSid, TW.authToken)
    const listed = twilio.requests.filter((r) => r.path.endsWith('/Recordings.json'))
    expect(listed.at(-1)?.authorization).toBe(auth)
    const media = twilio.requests.filter((r) => r.path.endsWith(`${recordingSid}.mp3`))
    expect(media.map((r) => r.authorization)).toEqual([auth, undefined])
    const res = await send(t.app, adminB, 'GET', `/api/calls/${row!.id}/recording`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toBe('audio/mpeg')
    expect(res.rawPayload.equals(mp3)).toBe(true)
  })

  it('Delete All Data deletes the hospital’s recording files', async () => {
    const rows = await queryRows<{ key: string }>(
      t.db,
      sql`select recording_key as key from calls
          where hospital_id = ${hospitalB} and recording_key is not null`,
    )
    expect(rows.length).toBeGreaterThan(0)
    for (const { key } of rows) expect(await exists(key)).toBe(true)
    const [h] = await queryRows<{ name: string }>(
      t.db,
      sql`select name from hospitals where id = ${hospitalB}`,
    )
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/delete-all',
      headers: browserHeaders(adminB),
      payload: JSON.stringify({ confirmName: h?.name, password: TEST_PASSWORD }),
    })
    expect(res.statusCode, res.body).toBe(200)
    for (const { key } of rows) expect(await exists(key)).toBe(false)
  })
})
