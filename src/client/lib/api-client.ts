/**
 * The one way the client calls the API (spec section 8, transport rule): the session
 * cookie always goes along, a JSON content type is set only when there is a body, and
 * any non-OK response becomes an ApiError whose text is "status: body" (or the status
 * text when the body is empty).
 */
export class ApiError extends Error {
  readonly status: number
  readonly body: string

  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`)
    this.status = status
    this.body = body
  }

  /** A string field of the JSON error body (`message`, `code`), if the body has one. */
  private field(name: 'message' | 'code'): string | undefined {
    try {
      const parsed = JSON.parse(this.body) as Record<string, unknown> | null
      const value = parsed?.[name]
      return typeof value === 'string' ? value : undefined
    } catch {
      return undefined // not JSON
    }
  }

  /** The server's `message` field, when the body is our JSON error shape. */
  get serverMessage(): string {
    return this.field('message') || this.body || this.message
  }

  /** The server's `message` field only (undefined for an empty or non-JSON body). */
  get jsonMessage(): string | undefined {
    return this.field('message') || undefined
  }

  /** The error code of our JSON error shape (`TWO_FACTOR_REQUIRED`, ...). */
  get code(): string | undefined {
    return this.field('code')
  }

  /** Field messages from a 400, keyed by field path. */
  get fieldErrors(): Record<string, string> {
    try {
      const parsed = JSON.parse(this.body) as { issues?: { path: string; message: string }[] }
      return Object.fromEntries((parsed.issues ?? []).map((i) => [i.path, i.message]))
    } catch {
      return {}
    }
  }
}

export async function apiFetch(method: string, url: string, body?: unknown): Promise<Response> {
  const response = await fetch(url, {
    method,
    credentials: 'include',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  if (!response.ok) {
    throw new ApiError(response.status, response.statusText, await response.text())
  }
  return response
}

export async function apiRequest<T>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await apiFetch(method, url, body)
  const text = await response.text()
  return (text ? JSON.parse(text) : null) as T
}

export const api = {
  get: <T>(url: string) => apiRequest<T>('GET', url),
  post: <T>(url: string, body?: unknown) => apiRequest<T>('POST', url, body),
  patch: <T>(url: string, body?: unknown) => apiRequest<T>('PATCH', url, body),
  put: <T>(url: string, body?: unknown) => apiRequest<T>('PUT', url, body),
  delete: <T>(url: string) => apiRequest<T>('DELETE', url),
}

/** Builds a query string from the values that are set (empty strings and 'all' are left out). */
export function toQuery(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '' || value === 'all') continue
    search.set(key, String(value))
  }
  const text = search.toString()
  return text ? `?${text}` : ''
}
