import { z } from 'zod'

/** What an API says about a stored secret: set or not, and for long ones its last 4. */
export const secretHintSchema = z.union([
  z.object({ set: z.literal(false) }),
  z.object({ set: z.literal(true), last4: z.string().nullable() }),
])

/** What Settings says when a page's webhook has a problem (docs/decisions/021). */
export const metaWebhookMessages = {
  signatureFailing:
    'Webhook deliveries for this page fail the signature check: check the App Secret (it must be the secret of the Meta app whose webhook sends them), save it and run Test Connection.',
  takenOver:
    'This Facebook page was connected to another hospital, which proved a valid page access token for it: its new leads no longer reach this hospital by webhook. If that was not expected, remove the page access tokens you do not recognise in Meta Business Settings, then run Test Connection here to connect the page again.',
  released:
    'The platform administrator disconnected this Facebook page from this hospital: its new leads no longer arrive by webhook. Run Test Connection to connect it again.',
} as const

/** The 400 (and Settings' message) when Graph refuses our appsecret_proof. */
export function appSecretRefusedMessage(metaText: string): string {
  return `${metaText}. The App Secret is not the secret of the Meta app this page access token was made for: copy it from the app's dashboard (App settings → Basic), save it and run Test Connection again.`
}

/** GET /api/integrations/meta: never a secret, only hints. */
export const metaConnectionView = z.object({
  pageId: z.string().nullable(),
  pageAccessToken: secretHintSchema,
  appSecret: secretHintSchema,
  verifyToken: secretHintSchema,
  /** needs_attention when Meta refused the token or secret, or the webhook has a problem. */
  status: z.enum(['ok', 'needs_attention']),
  /** Meta's refusal of the token or app secret (code 190, a bad appsecret_proof). */
  lastError: z.string().nullable(),
  /**
   * Why the webhook does not work for this page although it was set up: deliveries failing
   * the signature check, or the page taken over by another hospital or released (one of
   * metaWebhookMessages).
   */
  webhookError: z.string().nullable(),
  lastSyncAt: z.string().nullable(),
  /**
   * Whether webhook deliveries for the page reach this hospital: only after Test Connection
   * has proved that the saved token is the page's own and the app secret is its app's (a new
   * page ID, token or app secret undoes it, and so does Meta refusing the token later).
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

/** The most claims GET /api/admin/meta-pages returns at once (and its default). */
export const META_PAGES_PAGE_SIZE = 100

/** GET /api/admin/meta-pages?limit=1..100&offset=0..: claims, the newest first. */
export const listMetaPagesQuery = z.strictObject({
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int({ message: 'limit must be a whole number' })
    .min(1, { message: 'limit must be at least 1' })
    .max(META_PAGES_PAGE_SIZE, { message: `limit must be at most ${META_PAGES_PAGE_SIZE}` })
    .optional(),
  offset: z.coerce
    .number({ message: 'offset must be a number' })
    .int({ message: 'offset must be a whole number' })
    .min(0, { message: 'offset must be at least 0' })
    .max(1_000_000, { message: 'offset is too large' })
    .optional(),
})
export type ListMetaPagesQuery = z.output<typeof listMetaPagesQuery>

/** :pageId of /api/admin/meta-pages/:pageId. */
export const metaPageParams = z.strictObject({
  pageId: z
    .string()
    .regex(/^\d{1,40}$/, { message: 'Page ID must be the numeric Facebook page ID' }),
})

/** One page's claim as the super admin sees it. */
export const metaPageClaim = z.object({
  pageId: z.string(),
  hospitalId: z.string(),
  hospitalName: z.string(),
  claimedAt: z.string(),
  lastProvenAt: z.string(),
  /** Deliveries that failed the signature check since the last accepted one. */
  signatureFailures: z.number().int(),
  /** Refused deliveries naming the page in the current refusal window. */
  recentRefusals: z.number().int(),
  /** The hospital's Settings says the webhook needs attention (signature failures). */
  needsAttention: z.boolean(),
})
export type MetaPageClaim = z.infer<typeof metaPageClaim>

export const metaPageClaimList = z.object({
  items: z.array(metaPageClaim),
  total: z.number().int(),
})
export type MetaPageClaimList = z.infer<typeof metaPageClaimList>

/** DELETE /api/admin/meta-pages/:pageId → 200 */
export const releasedMetaPage = z.object({ pageId: z.string(), hospitalId: z.string() })
export type ReleasedMetaPage = z.infer<typeof releasedMetaPage>
