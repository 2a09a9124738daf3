import type { FastifyInstance } from 'fastify'
import { consentsRoutes } from './consents.routes'
import { sendGridWebhookRoutes } from './sendgrid.routes'
import { type MessagingWebhookDeps, twilioWebhookRoutes } from './twilio.routes'
import { whatsappWebhookRoutes } from './whatsapp.routes'

/**
 * Messaging providers' webhooks (public, each verified by its provider's signature: Twilio,
 * Meta WhatsApp Cloud, SendGrid) and staff consent records (issue 25).
 */
export function messagingWebhookRoutes(app: FastifyInstance, deps: MessagingWebhookDeps): void {
  twilioWebhookRoutes(app, deps)
  whatsappWebhookRoutes(app, deps)
  sendGridWebhookRoutes(app, deps)
  consentsRoutes(app, deps)
}
