import { randomBytes } from 'node:crypto'
import { smsParts } from '../../../src/shared/message-text'
import { startHttpFake, type Answer, type FakeHttp, type RecordedRequest } from './http-fake'

/**
 * A fake MSG91 Send SMS API (`POST /api/sendhttp.php`, form-encoded, `response=json`). MSG91
 * publishes no OpenAPI file, so the fake checks its documented parameters: authkey, mobiles
 * (country code + number, comma-separated), message, sender (a 6-letter DLT header), route (1
 * or 4), country, DLT_TE_ID (the 19-digit DLT template id), unicode=1 for UCS-2 text; plus the
 * PE ID this product sends. Errors come as `{ type: 'error', code, message }`.
 */

export interface FakeMsg91Message {
  id: string
  mobiles: string[]
  message: string
  sender: string
  route: string
  dltTemplateId: string
  peId: string
}

export interface FakeMsg91 extends FakeHttp {
  messages: FakeMsg91Message[]
  acceptedTo: Map<string, number>
}

const error = (status: number, code: string, message: string): Answer => ({
  status,
  body: { type: 'error', code, message },
})

export async function startFakeMsg91(authKeys: string[], port = 0): Promise<FakeMsg91> {
  const messages: FakeMsg91Message[] = []
  const acceptedTo = new Map<string, number>()
  const fake = await startHttpFake((req, take) => {
    if (req.path !== '/api/sendhttp.php' || req.method !== 'POST')
      return error(404, '404', 'Not found')
    if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded'))
      return refuse(req, ['the body must be form-encoded'])
    if (req.query.has('authkey')) return refuse(req, ['authkey belongs in the body, not the URL'])
    const f = new URLSearchParams(req.raw)
    const v = (name: string) => f.get(name) ?? ''
    if (!f.get('authkey')) return error(200, '106', 'Missing Authentication Key')
    if (!authKeys.includes(v('authkey'))) return error(200, '207', 'Authentication failure')
    const problems: string[] = []
    const mobiles = v('mobiles').split(',')
    if (!mobiles.every((m) => /^91[6-9]\d{9}$/.test(m)))
      problems.push('mobiles must be 91XXXXXXXXXX')
    if (!v('message')) problems.push('message is required')
    if (!/^[A-Z]{6}$/.test(v('sender'))) problems.push('sender must be a 6-letter DLT header')
    if (!['1', '4'].includes(v('route'))) problems.push('route must be 1 or 4')
    if (f.has('country') && v('country') !== '91') problems.push('country must be 91')
    if (!/^\d{19}$/.test(v('DLT_TE_ID')))
      problems.push('DLT_TE_ID must be the 19-digit DLT template id')
    if (!/^\d{19}$/.test(v('PE_ID'))) problems.push('PE_ID must be the 19-digit DLT entity id')
    if (v('response') !== 'json') problems.push('response=json is expected')
    if (smsParts(v('message')).encoding === 'UCS-2' && v('unicode') !== '1')
      problems.push('unicode=1 is required for this text')
    if (problems.length) return refuse(req, problems)
    const b = take()
    if (b?.hang) return 'hang'
    if (b?.status) {
      const answer = error(b.status, String(b.code ?? '500'), b.message ?? 'Refused by the test')
      if (b.retryAfter) answer.headers = { 'retry-after': b.retryAfter }
      return answer
    }
    const id = randomBytes(12).toString('hex')
    messages.push({
      id,
      mobiles,
      message: v('message'),
      sender: v('sender'),
      route: v('route'),
      dltTemplateId: v('DLT_TE_ID'),
      peId: v('PE_ID'),
    })
    for (const m of mobiles) acceptedTo.set(m, (acceptedTo.get(m) ?? 0) + 1)
    return { status: 200, body: { type: 'success', message: id } }
  }, port)
  return { ...fake, messages, acceptedTo }
}

function refuse(req: RecordedRequest, problems: string[]): Answer {
  req.refused = problems
  return error(400, '400', problems.join('; '))
}
