import type { MetaSyncResult, MetaTestResult } from '../../../shared/schemas/meta'
import type { AppDb } from '../../db/client'
import { withTenant } from '../../db/tenant'
import { createGraphClient, type GraphConfig, type GraphLead } from '../../integrations/meta/graph'
import { mapGraphLead } from '../../integrations/meta/map-lead'
import { readConnection, recordGraphOutcome, requireConfigured } from './connection.service'
import { graphFailure } from './graph-errors'
import { upsertMetaLead } from './meta-leads'

export interface MetaDeps {
  db: AppDb
  graph: GraphConfig
  /** Tests may swap the HTTP client; the real fetch otherwise. */
  fetch?: typeof fetch
}

interface HospitalOptions {
  hospitalId: string
  userId: string
}

/** Leads asked for again from this long before the last sync (storing them is idempotent). */
const OVERLAP_MS = 10 * 60_000
/** One Sync stores at most this many records; the rest come with the next Sync. */
export const SYNC_MAX_LEADS = 5_000

async function connect(deps: MetaDeps, opts: HospitalOptions) {
  const connection = await withTenant(deps.db, opts, (tx) => readConnection(tx, opts.hospitalId))
  const { pageId, credentials } = requireConfigured(connection)
  const client = createGraphClient(deps.graph, credentials, deps.fetch)
  return { connection, pageId, client }
}

/** POST /api/integrations/meta/test: the page's name, or Meta's error text. */
export async function testConnection(
  deps: MetaDeps,
  opts: HospitalOptions,
): Promise<MetaTestResult> {
  const { pageId, client } = await connect(deps, opts)
  try {
    const page = await client.getPage(pageId)
    await recordGraphOutcome(deps.db, opts.hospitalId, { ok: true })
    return { ok: true, pageName: page.name }
  } catch (error) {
    return graphFailure(deps.db, opts.hospitalId, error)
  }
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
