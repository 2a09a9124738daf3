import { z } from 'zod'

/** What an API says about a stored secret: set or not, and for long ones its last 4. */
export const secretHintSchema = z.union([
  z.object({ set: z.literal(false) }),
  z.object({ set: z.literal(true), last4: z.string().nullable() }),
])

/** GET /api/integrations/meta: never a secret, only hints. */
export const metaConnectionView = z.object({
  pageId: z.string().nullable(),
  pageAccessToken: secretHintSchema,
  appSecret: secretHintSchema,
  verifyToken: secretHintSchema,
  status: z.enum(['ok', 'needs_attention']),
  lastError: z.string().nullable(),
  lastSyncAt: z.string().nullable(),
  /**
   * Whether webhook deliveries for the page reach this hospital: only after Test Connection
   * has proved that the saved token is the page's own (a new page ID or token undoes it).
   */
  webhookReady: z.boolean(),
})
export type MetaConnectionView = z.infer<typeof metaConnectionView>

/** A secret field of the PUT: absent leaves it unchanged, '' (or null) clears it. */
function secretInput(label: string) {
  return (
    z
      .string({ message: `${label} must be text` })
      .trim()
      .max(1024, { message: `${label} is too long` })
      // eslint-disable-next-line no-control-regex -- control characters are what is refused
      .refine((v) => !/[\s\u0000-\u001f\u007f]/.test(v), {
        message: `${label} must not contain spaces or control characters`,
      })
      .nullable()
      .optional()
  )
}

/** PUT /api/integrations/meta. Every field optional; '' or null clears it. */
export const saveMetaConnectionInput = z.strictObject({
  pageId: z
    .string({ message: 'Page ID must be text' })
    .trim()
    .regex(/^(\d{1,40})?$/, { message: 'Page ID must be the numeric Facebook page ID' })
    .nullable()
    .optional(),
  pageAccessToken: secretInput('Page access token'),
  appSecret: secretInput('App secret'),
  verifyToken: secretInput('Verify token').refine((v) => !v || v.length >= 16, {
    message: 'Verify token must be at least 16 characters (use a long random value)',
  }),
})
export type SaveMetaConnectionInput = z.infer<typeof saveMetaConnectionInput>

/** POST /api/integrations/meta/test → 200 */
export const metaTestResult = z.object({ ok: z.literal(true), pageName: z.string() })
export type MetaTestResult = z.infer<typeof metaTestResult>

/** POST /api/leads/sync → 200: counts for the toast. */
export const metaSyncResult = z.object({
  processed: z.number().int(),
  created: z.number().int(),
  duplicates: z.number().int(),
  errors: z.number().int(),
})
export type MetaSyncResult = z.infer<typeof metaSyncResult>

/** Missing configuration, in the spec's 'set a configuration value' style. */
export const metaMissingMessages = {
  pageId: 'Meta page ID is not set. Set it in Settings → Integrations.',
  pageAccessToken: 'Meta page access token is not set. Set it in Settings → Integrations.',
  appSecret: 'Meta app secret is not set. Set it in Settings → Integrations.',
} as const
