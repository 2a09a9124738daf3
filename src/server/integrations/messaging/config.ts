/**
 * A hospital's messaging set-up with its secrets decrypted (only ever in memory, inside the
 * hospital's transaction or a job): what providerFor() (registry.ts) builds adapters from.
 * Read by readMessagingConfig (modules/messaging-settings/connection.service.ts) from
 * messaging_connections; a hospital without a row has the sandbox on every channel.
 */
export type WhatsappConfig =
  | { provider: 'sandbox' }
  | {
      provider: 'meta'
      phoneNumberId: string
      businessAccountId: string
      accessToken: string
      appSecret: string
    }
  | {
      provider: 'twilio'
      accountSid: string
      authToken: string
      /** The WhatsApp sender, E.164 (sent as whatsapp:+91…). */
      from: string
    }

export type SmsConfig =
  | { provider: 'sandbox' }
  | { provider: 'twilio'; accountSid: string; authToken: string; from: string }
  | {
      provider: 'msg91'
      authKey: string
      /** The DLT-registered header (sender id), e.g. SNJVNI. */
      senderId: string
      /** The DLT principal entity id (PE ID). */
      dltEntityId: string
    }

export type EmailConfig =
  | { provider: 'sandbox'; fromEmail?: string | undefined; fromName?: string | undefined }
  | {
      provider: 'smtp'
      /** 'custom', 'mailgun' or 'ses': presets only fill host and port in the form. */
      preset: string
      host: string
      port: number
      /** TLS from the start (465); otherwise STARTTLS when offered. */
      secure: boolean
      user: string
      password: string
      fromEmail: string
      fromName: string
    }
  | {
      provider: 'sendgrid'
      apiKey: string
      fromEmail: string
      fromName: string
      /** The event webhook's verification key (base64 DER); unsigned events are refused when set. */
      webhookPublicKey?: string | undefined
    }

export interface MessagingConfig {
  hospitalId: string
  whatsapp: WhatsappConfig
  sms: SmsConfig
  email: EmailConfig
}

export const sandboxConfig = (hospitalId: string): MessagingConfig => ({
  hospitalId,
  whatsapp: { provider: 'sandbox' },
  sms: { provider: 'sandbox' },
  email: { provider: 'sandbox' },
})
