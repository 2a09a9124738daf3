import type { MetaSyncResult, MetaTestResult } from '../../../shared/schemas/meta'
import type { AppDb } from '../../db/client'
import { withTenant } from '../../db/tenant'
import { createGraphClient, type GraphConfig, type GraphLead } from '../../integrations/meta/graph'
import { mapGraphLead } from '../../integrations/meta/map-lead'
import { AppError } from '../../http/app-error'
import type { Mailer } from '../../integrations/email/mailer'
import { readConnection, recordGraphOutcome, requireConfigured } from './connection.service'
import { graphFailure } from './graph-errors'
import { upsertMetaLead } from './meta-leads'
import { claimPageRoute } from './page-claims'

export interface MetaDeps {
  db: AppDb
  graph: GraphConfig
  /** Tells a hospital's admins when another hospital takes its page over. */
  mailer?: Mailer | undefined
  /** Tests may swap the HTTP client; the real fetch otherwise. */
  fetch?: typeof fetch
}

interface HospitalOptions {
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
}

/** Leads asked for again from this long before the last sync (storing them is idempotent). */
const OVERLAP_MS = 10 * 60_000
/** One Sync stores at most this many records; the rest come with the next Sync. */
export const SYNC_MAX_LEADS = 5_000

async function connect(deps: MetaDeps, opts: HospitalOptions) {
  const connection = await withTenant(deps.db, opts, (tx) => readConnection(tx, opts.hospitalId))
  const { pageId, credentials } = requireConfigured(connection)
  const client = createGraphClient(deps.graph, credentials, deps.fetch)
  return { connection, pageId, credentials, client }
}

/**
 * POST /api/integrations/meta/test: asks Graph whose token this is (`/me`, with the
 * appsecret_proof of the saved app secret, which Graph checks). When it is the saved page's
 * own, the token and the app secret are proven: the page's webhook deliveries are routed to
 * this hospital from now on, taken over from another hospital if need be (page-claims.ts), and
 * the page's name is answered. A token of another page is a 400 saying which page it is for
 * (and any claim lapses); Meta's errors as graphFailure answers them.
 */
export async function testConnection(
  deps: MetaDeps,
  opts: HospitalOptions,
): Promise<MetaTestResult> {
  const { pageId, credentials, client } = await connect(deps, opts)
  let page: { id: string; name: string }
  try {
    page = await client.getTokenPage()
  } catch (error) {
    return graphFailure(deps.db, opts.hospitalId, error)
  }
  if (page.id !== pageId) {
    await recordGraphOutcome(deps.db, opts.hospitalId, { notThePage: true })
    const named = page.name ? `"${page.name}" (ID ${page.id})` : `ID ${page.id}`
    throw new AppError(
      'BAD_REQUEST',
      `This page access token belongs to the page ${named}, not to page ${pageId}. Paste the token of page ${pageId}, or change the page ID.`,
    )
  }
  await claimPageRoute(
    { db: deps.db, mailer: deps.mailer },
    { db: deps.db, ...opts },
    {
      pageId,
      ...credentials,
    },
  )
  await recordGraphOutcome(deps.db, opts.hospitalId, { ok: true })
  return { ok: true, pageName: page.name }
}

/**
 * POST /api/leads/sync: every lead form of the page, and each form's leads since the last
 * successful sync (following Graph's paging), stored idempotently. A bounded synchronous call
 * (docs/decisions/016): at most SYNC_MAX_LEADS records; the webhook is the primary path and
 * Sync only catches up. One tenant transaction per record, so one bad record costs only itself.
 */
export async function syncLeads(deps: MetaDeps, opts: HospitalOptions): Promise<MetaSyncResult> {
  const { connection, pageId, client } = await connect(deps, opts)
  const startedAt = new Date()
  const since = connection.lastSyncAt
    ? new Date(connection.lastSyncAt.getTime() - OVERLAP_MS)
    : null
  const records: { lead: GraphLead; formId: string }[] = []
  try {
    for (const form of await client.listLeadForms(pageId)) {
      for (const lead of await client.listLeads(form.id, since)) {
        records.push({ lead, formId: form.id })
      }
      if (records.length >= SYNC_MAX_LEADS) break
    }
  } catch (error) {
    return graphFailure(deps.db, opts.hospitalId, error)
  }
  const result = { processed: 0, created: 0, duplicates: 0, errors: 0 }
  const complete = records.length <= SYNC_MAX_LEADS
  for (const { lead, formId } of records.slice(0, SYNC_MAX_LEADS)) {
    result.processed++
    const mapped = mapGraphLead(lead, formId)
    if (!mapped.ok) {
      result.errors++
      continue
    }
    try {
      const outcome = await withTenant(deps.db, opts, (tx) =>
        upsertMetaLead(tx, opts.hospitalId, mapped.lead),
      )
      if (outcome === 'created') result.created++
      else result.duplicates++
    } catch {
      result.errors++
    }
  }
  // Only a complete sync moves the mark; a capped one is resumed from the same point.
  await recordGraphOutcome(
    deps.db,
    opts.hospitalId,
    complete ? { ok: true, syncedAt: startedAt } : { ok: true },
  )
  return result
}
