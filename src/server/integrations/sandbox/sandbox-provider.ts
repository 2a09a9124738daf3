import { createHash } from 'node:crypto'
import type { MessageChannel } from '../../../shared/messaging'
import type { MessageProvider } from '../messaging/provider'

/**
 * The sandbox "provider" (issue 25): a hospital without credentials for a channel. Every send
 * is accepted at once and nothing leaves the building; the message is shown in the Sandbox
 * Outbox (communications with sandbox = true). The send pipeline reports it delivered
 * SANDBOX_DELIVERY_MS later, so staff see the same queued → sent → delivered life as with a
 * real provider.
 *
 * The id is derived from the idempotency key (the communication's id), so a send repeated after
 * a crash gets the same id, and lookup() of any key answers what send() would have: found,
 * with that id. Deterministic, no state, nothing to reconcile.
 */
export function sandboxMessageId(idempotencyKey: string): string {
  return `sbx_${createHash('sha256').update(idempotencyKey, 'utf8').digest('hex').slice(0, 32)}`
}

export function sandboxProvider(channel: MessageChannel): MessageProvider {
  return {
    name: 'sandbox',
    channel,
    async send(message, signal) {
      signal.throwIfAborted()
      return {
        ok: true,
        providerMessageId: sandboxMessageId(message.idempotencyKey),
        status: 'sent',
        detail: 'Sandbox: the message was not sent; it is shown in the Sandbox Outbox.',
      }
    },
    async lookup(query, signal) {
      signal.throwIfAborted()
      return {
        found: true,
        providerMessageId: sandboxMessageId(query.idempotencyKey),
        status: 'sent',
      }
    },
  }
}
