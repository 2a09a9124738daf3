import type { MessageChannel } from '../../../shared/messaging'
import type { Env } from '../../env'
import { msg91Provider } from '../msg91/msg91-provider'
import { sendgridProvider } from '../sendgrid/sendgrid-provider'
import { smtpProvider } from '../smtp/smtp-provider'
import { sandboxProvider } from '../sandbox/sandbox-provider'
import { twilioProvider } from '../twilio/twilio-provider'
import { whatsappCloudProvider } from '../whatsapp-cloud/whatsapp-cloud-provider'
import type { MessagingConfig } from './config'
import type { MessageProvider } from './provider'

/**
 * Where the providers live (env: TWILIO_API_URL, MSG91_API_URL, SENDGRID_API_URL,
 * META_GRAPH_URL + META_GRAPH_VERSION), so tests and the e2e run point them at the local fakes
 * (tests/support/fakes/). A hospital's credentials come from its MessagingConfig, never from here.
 */
export interface ProviderUrls {
  twilio: string
  /** Twilio's Content API (env TWILIO_CONTENT_URL); https://content.twilio.com when absent. */
  twilioContent?: string | undefined
  msg91: string
  sendgrid: string
  metaGraph: string
  /** e.g. 'v21.0'. */
  metaGraphVersion: string
  /** The sandbox reports a message delivered this long after it was sent (the pipeline does it). */
  sandboxDeliveryMs: number
  /** SMTP connection limits (the hospital's own server is in its config). */
  smtp?: SmtpOptions | undefined
}

export interface SmtpOptions {
  /** Connect, greeting and idle limit per message; default 10 s. */
  timeoutMs?: number | undefined
}

type ProviderEnv = Pick<
  Env,
  | 'TWILIO_API_URL'
  | 'TWILIO_CONTENT_URL'
  | 'MSG91_API_URL'
  | 'SENDGRID_API_URL'
  | 'META_GRAPH_URL'
  | 'META_GRAPH_VERSION'
  | 'SANDBOX_DELIVERY_MS'
>

export function providerUrlsFromEnv(env: ProviderEnv): ProviderUrls {
  return {
    twilio: env.TWILIO_API_URL,
    twilioContent: env.TWILIO_CONTENT_URL,
    msg91: env.MSG91_API_URL,
    sendgrid: env.SENDGRID_API_URL,
    metaGraph: env.META_GRAPH_URL,
    metaGraphVersion: env.META_GRAPH_VERSION,
    sandboxDeliveryMs: env.SANDBOX_DELIVERY_MS,
  }
}

/**
 * The adapter that carries `channel` for this hospital. The sandbox for a channel without
 * credentials (MessagingConfig says so); the pipeline marks such messages sandbox = true.
 */
export function providerFor(
  config: MessagingConfig,
  channel: MessageChannel,
  urls: ProviderUrls,
): MessageProvider {
  switch (channel) {
    case 'whatsapp': {
      const c = config.whatsapp
      if (c.provider === 'sandbox') return sandboxProvider(channel)
      if (c.provider === 'twilio') return twilioProvider(channel, c, urls.twilio)
      return whatsappCloudProvider(c, urls.metaGraph, urls.metaGraphVersion)
    }
    case 'sms': {
      const c = config.sms
      if (c.provider === 'sandbox') return sandboxProvider(channel)
      if (c.provider === 'twilio') return twilioProvider(channel, c, urls.twilio)
      return msg91Provider(c, urls.msg91)
    }
    case 'email': {
      const c = config.email
      if (c.provider === 'sandbox') return sandboxProvider(channel)
      if (c.provider === 'sendgrid') return sendgridProvider(c, urls.sendgrid)
      return smtpProvider(c, { timeoutMs: urls.smtp?.timeoutMs })
    }
  }
}
