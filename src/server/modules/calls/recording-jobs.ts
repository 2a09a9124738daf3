import { randomUUID } from 'node:crypto'
import { and, eq, inArray, isNotNull, isNull, lt, ne } from 'drizzle-orm'
import { z } from 'zod'
import type { AppDb, Tx } from '../../db/client'
import { calls, voiceSettings } from '../../db/schema/calls'
import { withPlatform, withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { VoiceProviderError } from '../../integrations/voice/voice-provider'
import { enqueue } from '../../jobs/queue'
import {
  type ClaimedJob,
  handlerFor,
  type JobContext,
  PermanentJobError,
  PublicJobError,
  registerHandler,
} from '../../jobs/registry'
import { settleRoom, storageRoom, type QuotaRoom } from '../../storage/quota'
import { getStorage, tenantKey } from '../../storage/storage'
import { voiceJobOptions } from '../voice-webhooks/voice-job-options'
import type { CallRow } from './call-progress'
import { RecordingDownloadError } from './recording-http'
import { openRecordingSource } from './recording-source'

/*
 * Call recordings (issue 41): when a call the hospital recorded ends answered, the recording
 * is copied into the storage module (calls.recording.fetch), counted in the hospital's disk
 * quota (calls.recording_bytes, kind 'recordings'), and deleted after RECORDING_RETENTION_DAYS
 * (calls.recording.prune, daily) or with the patient's erasure and Delete All Data.
 *
 * The fetch job is idempotent: each attempt stores under a key of its own, and only the attempt
 * whose UPDATE finds the call still without a recording keeps its file (others delete theirs).
 * The quota's last word is settleRoom in that UPDATE's transaction (per-hospital lock). A
 * recording that cannot be kept leaves a note on the call saying why.
 */

export const RECORDING_FETCH_JOB = 'calls.recording.fetch'
export const RECORDING_PRUNE_JOB = 'calls.recording.prune'
/** The most one recording may take (a 4-hour call in Exotel's mp3-hq is about 115 MB). */
export const RECORDING_MAX_BYTES = 100 * 1024 * 1024
/**
 * How long recordings are kept. The hospital has no data-retention setting of its own yet
 * (only backup retention), so this documented default applies (docs/security.md).
 */
export const RECORDING_RETENTION_DAYS = 180
/** Providers make the file available a little after the call ends. */
const PROVIDER_DELAY_MS = 20_000
const FETCH_ATTEMPTS = 8

export const RECORDING_NOTES = {
  quota:
    'The recording was not kept: the hospital’s storage is full (Settings → Data shows what uses the space).',
  tooLarge: 'The recording was not kept: it was larger than 100 MB.',
  missing: 'The provider had no recording of this call.',
  refused:
    'The recording could not be fetched from the provider (check the voice settings: credentials, provider).',
} as const

/**
 * In the transaction that ended the call: when it was answered and the hospital records calls,
 * the fetch job (once per call).
 */
export async function enqueueRecordingFetch(tx: Tx, row: CallRow): Promise<void> {
  if (row.outcome !== 'answered' || row.recordingKey) return
  const [settings] = await tx
    .select({ on: voiceSettings.recordingEnabled })
    .from(voiceSettings)
    .where(eq(voiceSettings.hospitalId, row.hospitalId))
  if (!settings?.on) return
  await enqueue(tx, {
    name: RECORDING_FETCH_JOB,
    hospitalId: row.hospitalId,
    payload: { callId: row.id },
    runAt: new Date(Date.now() + (row.provider === 'sandbox' ? 0 : PROVIDER_DELAY_MS)),
    dedupeKey: `call:${row.id}:recording`,
    maxAttempts: FETCH_ATTEMPTS,
  })
}

const payload = z.object({ callId: z.uuid() })

async function note(ctx: JobContext, callId: string, text: string) {
  await ctx.withTenant((tx) =>
    tx
      .update(calls)
      .set({ recordingNote: text, updatedAt: new Date() })
      .where(and(eq(calls.id, callId), isNull(calls.recordingKey))),
  )
  return { kept: false, note: text }
}

const isCode = (error: unknown, code: string) => error instanceof AppError && error.code === code

async function fetchJob(job: ClaimedJob, ctx: JobContext) {
  const parsed = payload.safeParse(job.payload)
  if (!parsed.success || !job.hospitalId)
    throw new PermanentJobError('This recording job is not valid.')
  const { callId } = parsed.data
  const hospitalId = job.hospitalId
  const found = await ctx.withTenant(async (tx) => {
    const [call] = await tx.select().from(calls).where(eq(calls.id, callId))
    const [settings] = await tx.select().from(voiceSettings)
    return { call, settings }
  })
  const call = found.call
  // Gone, kept already, erased since (the number blanked), or never answered: nothing to do.
  if (!call || call.recordingKey || call.customerPhone === '' || call.outcome !== 'answered')
    return { kept: false }
  let room: QuotaRoom
  try {
    room = await storageRoom(ctx.db, hospitalId)
  } catch (error) {
    if (isCode(error, 'STORAGE_QUOTA_EXCEEDED')) return note(ctx, callId, RECORDING_NOTES.quota)
    throw error
  }
  let source
  try {
    source = await openRecordingSource({
      db: ctx.db,
      call,
      settings: found.settings,
      voice: voiceJobOptions(ctx.db).voice,
      signal: ctx.signal,
    })
  } catch (error) {
    return sourceFailed(ctx, callId, error)
  }
  const storage = getStorage()
  const key = tenantKey(hospitalId, 'recordings', `${callId}-${randomUUID().slice(0, 8)}`)
  const maxBytes = Math.min(RECORDING_MAX_BYTES, room.remainingBytes)
  let size: number
  try {
    ;({ size } = await storage.put(key, source.body, { maxBytes, contentType: source.contentType }))
  } catch (error) {
    source.body.destroy()
    if (!isCode(error, 'PAYLOAD_TOO_LARGE')) throw error
    const why = maxBytes < RECORDING_MAX_BYTES ? RECORDING_NOTES.quota : RECORDING_NOTES.tooLarge
    return note(ctx, callId, why)
  }
  try {
    const kept = await ctx.withTenant(async (tx) => {
      await settleRoom(tx, room, size)
      const [row] = await tx
        .update(calls)
        .set({ recordingKey: key, recordingBytes: size, recordingNote: null })
        .where(and(eq(calls.id, callId), isNull(calls.recordingKey), ne(calls.customerPhone, '')))
        .returning({ id: calls.id })
      return row !== undefined
    })
    if (!kept) await storage.delete(key).catch(() => undefined)
    return { kept, bytes: size }
  } catch (error) {
    await storage.delete(key).catch(() => undefined)
    if (isCode(error, 'STORAGE_QUOTA_EXCEEDED')) return note(ctx, callId, RECORDING_NOTES.quota)
    throw error
  }
}

/** Not there yet or the provider busy: retried. Refused or blocked: the call says so. */
async function sourceFailed(ctx: JobContext, callId: string, error: unknown) {
  if (error instanceof RecordingDownloadError) {
    if (error.kind === 'missing' || error.kind === 'busy')
      throw new PublicJobError('The provider has not given the recording yet; trying again.')
    return note(ctx, callId, RECORDING_NOTES.refused)
  }
  if (error instanceof VoiceProviderError) {
    if (error.kind === 'unavailable')
      throw new PublicJobError('The provider has not given the recording yet; trying again.')
    return note(ctx, callId, RECORDING_NOTES.refused)
  }
  throw error
}

/** After the last attempt: the call says the provider had no recording. */
async function fetchDead(job: ClaimedJob, ctx: JobContext) {
  const parsed = payload.safeParse(job.payload)
  if (parsed.success && job.hospitalId) await note(ctx, parsed.data.callId, RECORDING_NOTES.missing)
}

/** Deletes stored recordings after their rows stopped naming them; a failure only leaks. */
export async function deleteRecordingFiles(keys: readonly string[]): Promise<void> {
  const storage = getStorage()
  for (const key of keys) await storage.delete(key).catch(() => undefined)
}

const PRUNE_BATCH = 500

/**
 * Recordings of calls that ended more than `days` ago: the rows stop naming them (one
 * transaction per hospital and batch), then the files are deleted. Returns how many.
 */
export async function pruneRecordings(
  db: AppDb,
  options: { days?: number; now?: Date } = {},
): Promise<{ hospitals: number; removed: number }> {
  const days = options.days ?? RECORDING_RETENTION_DAYS
  const cutoff = new Date((options.now ?? new Date()).getTime() - days * 86_400_000)
  const old = and(isNotNull(calls.recordingKey), lt(calls.endedAt, cutoff))
  const hospitals = await withPlatform(db, (tx) =>
    tx.selectDistinct({ id: calls.hospitalId }).from(calls).where(old),
  )
  let removed = 0
  for (const { id: hospitalId } of hospitals) {
    for (;;) {
      const keys = await withTenant(db, { hospitalId, userId: null }, async (tx) => {
        const rows = await tx
          .select({ id: calls.id, key: calls.recordingKey })
          .from(calls)
          .where(old)
          .limit(PRUNE_BATCH)
          .for('update', { skipLocked: true })
        if (rows.length > 0)
          await tx
            .update(calls)
            .set({ recordingKey: null, recordingBytes: null })
            .where(
              inArray(
                calls.id,
                rows.map((r) => r.id),
              ),
            )
        return rows.map((r) => r.key).filter((k): k is string => k !== null)
      })
      await deleteRecordingFiles(keys)
      removed += keys.length
      if (keys.length < PRUNE_BATCH) break
    }
  }
  return { hospitals: hospitals.length, removed }
}

/** Registers the recording jobs once per process (calls routes and all-jobs both call it). */
export function registerRecordingJobs(): void {
  if (handlerFor(RECORDING_FETCH_JOB)) return
  registerHandler(RECORDING_FETCH_JOB, fetchJob, {
    // Fair per hospital: one hospital's burst of recordings never holds up another's.
    perHospitalRunning: 2,
    onDead: fetchDead,
  })
  registerHandler(RECORDING_PRUNE_JOB, async (_job, ctx) => pruneRecordings(ctx.db))
}
