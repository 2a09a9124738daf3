import { appSecretProof } from '../meta/graph'
import { USER_AGENT } from '../messaging/http'

/**
 * Proof that a hospital's WhatsApp ids are its own (issue 39): with the hospital's own access
 * token (and appsecret_proof of its app secret, which Graph checks whenever one is sent),
 * `GET /{phone-number-id}` must answer that very number, and `GET /{waba-id}/phone_numbers` must
 * list it, so the number belongs to the business account and the token may read both. Any
 * other answer is a refusal naming the field to fix; the ids are then never routed.
 */
export interface WhatsappIds {
  phoneNumberId: string
  businessAccountId: string
  accessToken: string
  appSecret: string
}

export interface GraphEndpoint {
  baseUrl: string
  version: string
}

export type ProofField = 'phoneNumberId' | 'businessAccountId' | 'accessToken' | 'appSecret'

export type ProofResult =
  | { ok: true; displayPhoneNumber: string | null }
  | { ok: false; field: ProofField; message: string }
  /** Meta could not be reached or answered 5xx/429: nothing is known either way. */
  | { ok: false; field: null; message: string }

const TIMEOUT_MS = 15_000
/** Pages of the account's numbers read at most (100 each). */
const MAX_PAGES = 10

export const proofMessages = {
  token:
    'Meta refused this access token: paste a current System User access token of the business that owns this WhatsApp number.',
  appSecret:
    'Meta says this app secret is not the secret of the app that issued the access token: copy it from the app dashboard (App settings → Basic).',
  phone:
    'Meta does not let this access token read this phone number ID: check the ID in WhatsApp Manager (API Setup), and that the token belongs to the business that owns the number.',
  account:
    'Meta does not let this access token read this WhatsApp Business Account ID: check the ID in WhatsApp Manager, and that the token belongs to the business that owns it.',
  notInAccount:
    'This phone number ID does not belong to this WhatsApp Business Account ID: check both in WhatsApp Manager.',
  unreachable:
    "Meta's Graph API could not be reached to check the WhatsApp IDs. Nothing was saved: try again in a minute.",
} as const

interface Answer {
  status: number
  json: unknown
}

async function graphGet(
  endpoint: GraphEndpoint,
  path: string,
  query: Record<string, string>,
  ids: WhatsappIds,
): Promise<Answer | null> {
  const url = new URL(
    `${endpoint.baseUrl.replace(/\/+$/, '')}/${endpoint.version}/${path.replace(/^\/+/, '')}`,
  )
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v)
  url.searchParams.set('appsecret_proof', appSecretProof(ids.accessToken, ids.appSecret))
  try {
    const res = await fetch(url, {
      headers: {
        authorization: `Bearer ${ids.accessToken}`,
        accept: 'application/json',
        'user-agent': USER_AGENT,
      },
      // A redirect is never followed (its Location is not ours to fetch): a provider error.
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
    const text = await res.text()
    let json: unknown = null
    try {
      json = text ? (JSON.parse(text) as unknown) : null
    } catch {
      json = null
    }
    return { status: res.status, json }
  } catch {
    return null
  }
}

const errorOf = (json: unknown) =>
  (json as { error?: { code?: unknown; message?: unknown } } | null)?.error

/** A Graph refusal of the token or secret, or null when it is about the object asked for. */
function credentialRefusal(answer: Answer): ProofResult | null {
  const error = errorOf(answer.json)
  const code = typeof error?.code === 'number' ? error.code : null
  const text = typeof error?.message === 'string' ? error.message : ''
  if (code === 190 || answer.status === 401)
    return { ok: false, field: 'accessToken', message: proofMessages.token }
  if (code === 100 && /appsecret_proof/i.test(text))
    return { ok: false, field: 'appSecret', message: proofMessages.appSecret }
  return null
}

const unknownAnswer = (answer: Answer | null) =>
  !answer ||
  answer.status === 429 ||
  answer.status >= 500 ||
  (answer.status >= 300 && answer.status < 400)

/** Checks the ids against Meta's Graph API with the hospital's own credentials. */
export async function proveWhatsappIds(
  endpoint: GraphEndpoint,
  ids: WhatsappIds,
): Promise<ProofResult> {
  const phone = await graphGet(
    endpoint,
    encodeURIComponent(ids.phoneNumberId),
    { fields: 'id,display_phone_number' },
    ids,
  )
  if (unknownAnswer(phone)) return { ok: false, field: null, message: proofMessages.unreachable }
  const p = phone as Answer
  if (p.status !== 200) {
    return (
      credentialRefusal(p) ?? { ok: false, field: 'phoneNumberId', message: proofMessages.phone }
    )
  }
  const number = p.json as { id?: unknown; display_phone_number?: unknown } | null
  if (number?.id !== ids.phoneNumberId)
    return { ok: false, field: 'phoneNumberId', message: proofMessages.phone }

  let after: string | null = null
  for (let page = 0; page < MAX_PAGES; page++) {
    const list = await graphGet(
      endpoint,
      `${encodeURIComponent(ids.businessAccountId)}/phone_numbers`,
      { fields: 'id', limit: '100', ...(after ? { after } : {}) },
      ids,
    )
    if (unknownAnswer(list)) return { ok: false, field: null, message: proofMessages.unreachable }
    const l = list as Answer
    if (l.status !== 200) {
      return (
        credentialRefusal(l) ?? {
          ok: false,
          field: 'businessAccountId',
          message: proofMessages.account,
        }
      )
    }
    const body = l.json as {
      data?: { id?: unknown }[]
      paging?: { cursors?: { after?: unknown }; next?: unknown }
    } | null
    if (!Array.isArray(body?.data))
      return { ok: false, field: 'businessAccountId', message: proofMessages.account }
    if (body.data.some((n) => n.id === ids.phoneNumberId)) {
      const display = number.display_phone_number
      return { ok: true, displayPhoneNumber: typeof display === 'string' ? display : null }
    }
    const next = body.paging?.cursors?.after
    if (typeof body.paging?.next !== 'string' || typeof next !== 'string' || !next) break
    after = next
  }
  return { ok: false, field: 'businessAccountId', message: proofMessages.notInAccount }
}
