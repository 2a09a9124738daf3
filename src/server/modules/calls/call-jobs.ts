import { z } from 'zod'
import type { Tx } from '../../db/client'
import { enqueue } from '../../jobs/queue'
import { type ClaimedJob, type JobContext, PermanentJobError } from '../../jobs/registry'
import { handlerFor, registerHandler } from '../../jobs/registry'
import type { SandboxOutcome } from '../../integrations/voice/sandbox-voice'
import { applyCallChange, settleUnplaced } from './call-progress'

/**
 * The calls module's jobs (issue 41), on the one PostgreSQL queue, so any instance runs them:
 *  - calls.sandbox-step moves a sandbox call along the path its number decided at start:
 *    ringing, then after the ring time in-progress (then completed after the talk time), or
 *    no-answer, or busy. Each step applies its change and enqueues the next in one
 *    transaction, under a dedupe key per call and step: a retried step enqueues nothing twice.
 *  - calls.settle-unplaced fails a call still queued without a provider id two minutes after
 *    it was started (the instance stopped before the provider answered).
 */

export const SANDBOX_STEP_JOB = 'calls.sandbox-step'
export const SETTLE_UNPLACED_JOB = 'calls.settle-unplaced'
/** How long a call may stay queued without a provider id before it is failed. */
export const SETTLE_AFTER_MS = 120_000

const plan = z.object({
  outcome: z.enum(['completed', 'no-answer', 'busy']),
  durationSeconds: z.number().int().min(0).max(100_000),
  ringMs: z.number().int().min(0),
  talkMs: z.number().int().min(0),
})
export type SandboxPlan = z.infer<typeof plan>

const stepPayload = z.object({
  callId: z.uuid(),
  to: z.enum(['ringing', 'in-progress', 'completed', 'no-answer', 'busy']),
  plan,
})
type StepPayload = z.infer<typeof stepPayload>

export function sandboxPlan(
  outcome: SandboxOutcome,
  pace: { ringMs: number; talkMs: number },
): SandboxPlan {
  return { outcome: outcome.status, durationSeconds: outcome.durationSeconds, ...pace }
}

/** The step after `to`, and how long after it, or null once the call has ended. */
function nextStep(p: StepPayload): { to: StepPayload['to']; afterMs: number } | null {
  if (p.to === 'ringing') {
    const to = p.plan.outcome === 'completed' ? 'in-progress' : p.plan.outcome
    return { to, afterMs: p.plan.ringMs }
  }
  if (p.to === 'in-progress') return { to: 'completed', afterMs: p.plan.talkMs }
  return null
}

/** Enqueues a sandbox call's step in the caller's transaction (once per call and step). */
export async function enqueueSandboxStep(
  tx: Tx,
  hospitalId: string,
  payload: StepPayload,
  afterMs: number,
): Promise<void> {
  await enqueue(tx, {
    name: SANDBOX_STEP_JOB,
    hospitalId,
    payload,
    runAt: new Date(Date.now() + afterMs),
    dedupeKey: `call:${payload.callId}:${payload.to}`,
  })
}

export async function enqueueSettleUnplaced(tx: Tx, hospitalId: string, callId: string) {
  await enqueue(tx, {
    name: SETTLE_UNPLACED_JOB,
    hospitalId,
    payload: { callId },
    runAt: new Date(Date.now() + SETTLE_AFTER_MS),
    dedupeKey: `call:${callId}:settle`,
  })
}

function hospitalOf(job: ClaimedJob): string {
  if (!job.hospitalId) throw new PermanentJobError('A call job must belong to a hospital.')
  return job.hospitalId
}

async function sandboxStepJob(job: ClaimedJob, ctx: JobContext) {
  const parsed = stepPayload.safeParse(job.payload)
  if (!parsed.success) throw new PermanentJobError('This call step is not valid.')
  const p = parsed.data
  const hospitalId = hospitalOf(job)
  return ctx.withTenant(async (tx) => {
    const row = await applyCallChange(tx, p.callId, {
      status: p.to,
      at: new Date(),
      durationSeconds: p.to === 'completed' ? p.plan.durationSeconds : 0,
    })
    if (!row) return { applied: false }
    const next = nextStep(p)
    if (next) await enqueueSandboxStep(tx, hospitalId, { ...p, to: next.to }, next.afterMs)
    return { applied: true, status: row.status }
  })
}

async function settleUnplacedJob(job: ClaimedJob, ctx: JobContext) {
  const callId = (job.payload as { callId?: unknown } | null)?.callId
  if (typeof callId !== 'string' || !z.uuid().safeParse(callId).success)
    throw new PermanentJobError('This call is not valid.')
  hospitalOf(job)
  const row = await ctx.withTenant((tx) => settleUnplaced(tx, callId))
  return { settled: row !== null }
}

/** Registers the calls jobs once per process (buildApp and all-jobs both call it). */
export function registerCallJobs(): void {
  if (handlerFor(SANDBOX_STEP_JOB)) return
  registerHandler(SANDBOX_STEP_JOB, sandboxStepJob)
  registerHandler(SETTLE_UNPLACED_JOB, settleUnplacedJob)
}
