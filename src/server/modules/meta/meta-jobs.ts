import { z } from 'zod'
import type { Tx } from '../../db/client'
import { createGraphClient, type GraphConfig, GraphError } from '../../integrations/meta/graph'
import { mapGraphLead } from '../../integrations/meta/map-lead'
import {
  type JobHandler,
  PermanentJobError,
  PublicJobError,
  registerHandler,
} from '../../jobs/registry'
import { readConnection, recordGraphOutcome, touchProven } from './connection.service'
import { refusalMessage } from './graph-errors'
import { upsertMetaLead } from './meta-leads'

/** The job the webhook leaves for each leadgen change (the pending fetch). */
export const META_FETCH_LEAD_JOB = 'meta.fetch-lead'
/** Retries with the queue's backoff (10 s doubling to 1 h): about a day and a half in all. */
export const META_FETCH_LEAD_ATTEMPTS = 12

export const fetchLeadPayload = z.object({
  pageId: z.string().regex(/^\d{1,40}$/),
  leadgenId: z.string().regex(/^\d{1,40}$/),
  formId: z
    .string()
    .regex(/^\d{1,40}$/)
    .nullable(),
})

export const metaLeadDedupeKey = (hospitalId: string, leadgenId: string) =>
  `meta-lead:${hospitalId}:${leadgenId}`

/**
 * Fetches one lead from Graph and stores it as Sync does (idempotent: a retry or a second
 * delivery stores nothing twice). Meta refusing the token (190) or the appsecret_proof marks the
 * connection, lapses the page's claim, and the job retries, so a lead that arrived while the token was expired is fetched once staff paste
 * a new one; rate limits and network failures retry with backoff; a lead Meta does not know
 * (or without a valid phone) ends the job without retrying.
 */
export function fetchLeadHandler(graph: GraphConfig, fetchImpl?: typeof fetch): JobHandler {
  return async (job, ctx) => {
    const payload = fetchLeadPayload.safeParse(job.payload)
    if (!payload.success || !job.hospitalId)
      throw new PermanentJobError('bad meta.fetch-lead payload')
    const { pageId, leadgenId, formId } = payload.data
    const hospitalId = job.hospitalId
    const connection = await ctx.withTenant((tx: Tx) => readConnection(tx, hospitalId))
    if (connection.pageId !== pageId) {
      throw new PermanentJobError('the page is no longer connected to this hospital')
    }
    if (!connection.pageAccessToken || !connection.appSecret) {
      throw new PublicJobError('Meta page access token or app secret is not set')
    }
    const client = createGraphClient(
      graph,
      { pageAccessToken: connection.pageAccessToken, appSecret: connection.appSecret },
      fetchImpl,
    )
    let lead
    try {
      lead = await client.fetchLead(leadgenId)
    } catch (error) {
      // The token or app secret no longer proves the page: Settings says so, the page's claim
      // lapses (docs/decisions/021), and the job retries until a new one is saved.
      if (error instanceof GraphError && (error.kind === 'auth' || error.kind === 'app_secret')) {
        await recordGraphOutcome(ctx.db, hospitalId, { needsAttention: refusalMessage(error) })
      }
      if (error instanceof GraphError && error.kind === 'provider' && error.code === 100) {
        throw new PermanentJobError(error.message)
      }
      throw error
    }
    // Meta accepts the token again (staff pasted a new one, or the outage passed).
    if (connection.status === 'needs_attention') {
      await recordGraphOutcome(ctx.db, hospitalId, { ok: true })
    }
    const mapped = mapGraphLead(lead, formId)
    if (!mapped.ok) return { stored: false, reason: mapped.reason }
    const outcome = await ctx.withTenant(async (tx) => {
      await touchProven(tx, hospitalId, pageId)
      return upsertMetaLead(tx, hospitalId, mapped.lead)
    })
    return { stored: true, outcome }
  }
}

let current: { graph: GraphConfig; fetch: typeof fetch | undefined } | undefined

/**
 * Registers the meta.fetch-lead handler once per process (buildApp calls it; a worker-only
 * process must call it too). A later call only changes the Graph settings it uses.
 */
export function registerMetaJobs(graph: GraphConfig, fetchImpl?: typeof fetch): void {
  const first = current === undefined
  current = { graph, fetch: fetchImpl }
  if (!first) return
  registerHandler(META_FETCH_LEAD_JOB, (job, ctx) => {
    const settings = current as NonNullable<typeof current>
    return fetchLeadHandler(settings.graph, settings.fetch)(job, ctx)
  })
}
