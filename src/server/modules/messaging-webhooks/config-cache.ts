import { sql } from 'drizzle-orm'
import type { AppDb, Tx } from '../../db/client'
import { withTenant } from '../../db/tenant'
import type { MessagingConfig } from '../../integrations/messaging/config'
import {
  readMessagingConfig,
  readWhatsappVerifyToken,
} from '../messaging-settings/connection.service'
import { MESSAGING_CHANNEL } from '../messaging/notify'

/** What the webhooks need of a hospital's set-up: its secrets, decrypted (memory only). */
export interface WebhookConfig {
  config: MessagingConfig
  /** Meta WhatsApp's hub.verify_token (not part of the sending config). */
  verifyToken: string | null
}

/**
 * How long a hospital's decrypted webhook secrets are reused without asking the database: a
 * busy hospital's status callbacks then cost one transaction each (docs: issue 25, ≥ 1,000
 * callbacks/s). A settings change takes effect at once on the instance that made it and on
 * every instance that hears the NOTIFY (announceSettingsChanged); without LISTEN, within this
 * time.
 */
export const WEBHOOK_CONFIG_TTL_MS = 5_000
const MAX_ENTRIES = 10_000

type Entry = WebhookConfig & { until: number }
const caches = new WeakMap<AppDb, Map<string, Entry>>()

function cacheOf(db: AppDb): Map<string, Entry> {
  let cache = caches.get(db)
  if (!cache) caches.set(db, (cache = new Map()))
  return cache
}

/** The hospital's webhook config (from the cache when fresh); null when it cannot be read. */
export async function webhookConfig(
  db: AppDb,
  hospitalId: string,
  log?: { warn: (obj: object, msg: string) => void },
): Promise<WebhookConfig | null> {
  const cache = cacheOf(db)
  const now = Date.now()
  const hit = cache.get(hospitalId)
  if (hit && hit.until > now) return hit
  let found: WebhookConfig
  try {
    found = await withTenant(db, { hospitalId, userId: null }, async (tx) => ({
      config: await readMessagingConfig(tx, hospitalId),
      verifyToken: await readWhatsappVerifyToken(tx, hospitalId),
    }))
  } catch (error) {
    // A secret that no longer decrypts (a lost key): refused like a wrong signature.
    log?.warn({ err: error, hospitalId }, 'messaging webhook: cannot read the hospital set-up')
    return null
  }
  if (cache.size >= MAX_ENTRIES) cache.clear()
  cache.set(hospitalId, { ...found, until: now + WEBHOOK_CONFIG_TTL_MS })
  return found
}

/** Drops a hospital's cached secrets on this instance (its settings changed). */
export function forgetWebhookConfig(db: AppDb, hospitalId: string): void {
  cacheOf(db).delete(hospitalId)
}

/** The payload that tells every instance a hospital's messaging settings changed. */
export interface SettingsChanged {
  kind: 'settings'
  hospitalId: string
}

/**
 * Call in the transaction that saves a hospital's messaging settings (S-settings' PUT): when it
 * commits, every instance drops its cached secrets of that hospital (messaging-events/hub.ts).
 */
export async function announceSettingsChanged(tx: Tx, hospitalId: string): Promise<void> {
  const payload: SettingsChanged = { kind: 'settings', hospitalId }
  await tx.execute(sql`select pg_notify(${MESSAGING_CHANNEL}, ${JSON.stringify(payload)})`)
}
