import type { Recipient } from '../types'

/**
 * Query keys messaging shares with other screens. A lead's history uses the leads feature's
 * key (['/api/leads', 'communications', id]), so any lead change refreshes it as before.
 */
export const communicationsKey = (who: Pick<Recipient, 'kind' | 'id'>) =>
  who.kind === 'lead'
    ? (['/api/leads', 'communications', who.id] as const)
    : (['/api/patients', 'communications', who.id] as const)

export const unreadKey = ['/api/messaging/unread'] as const
export const templatesRootKey = ['/api/message-templates'] as const
export const sandboxOutboxKey = ['/api/sandbox-outbox'] as const
export const remindersKey = ['/api/reminders', 'pending'] as const
