import { Readable } from 'node:stream'
import type { AppDb } from '../../db/client'
import { basicAuth, httpCall } from '../../integrations/messaging/http'
import { exotelAccountUrl } from '../../integrations/voice/exotel-voice'
import { VOICE_TIMEOUT_MS } from '../../integrations/voice/voice-provider'
import { decryptSecret } from '../../secrets/secrets'
import type { CallRow } from './call-progress'
import { openRecording, RecordingDownloadError } from './recording-http'
import {
  hospitalVoice,
  voiceSecretContext,
  type VoiceOptions,
  type VoiceSettingsRow,
} from './voice-registry'

/*
 * Where a call's recording comes from (issue 41), by the provider that placed the call:
 *  - Exotel: the call details' RecordingUrl, fetched with the account's Basic auth (sent only
 *    to Exotel's own hosts and the operator's EXOTEL_API_URL);
 *  - Twilio: the call's recording (Recordings.json?CallSid=…), its media as MP3 with the
 *    account's Basic auth (Twilio redirects the media to a signed URL: no credentials there);
 *  - the sandbox: a few seconds of silence as WAV, made here, so the demo shows a player.
 */

export interface RecordingSource {
  body: Readable
  contentType: string
}

/** Content types a recording is served as (by the provider that made it). */
export const recordingContentType = (provider: CallRow['provider']): string =>
  provider === 'sandbox' ? 'audio/wav' : 'audio/mpeg'

const trustedByDb = new WeakMap<AppDb, readonly string[]>()

/** Tests: extra origins that skip the outbound-host guard (a local recording host). */
export function setRecordingTrustedOrigins(db: AppDb, origins: readonly string[]): void {
  trustedByDb.set(db, origins)
}

function originOf(url: string | undefined): string[] {
  if (!url) return []
  try {
    return [new URL(url).origin]
  } catch {
    return []
  }
}

/** The operator's provider base URLs (and a test's extra origins). */
export function trustedOrigins(db: AppDb, voice: VoiceOptions): string[] {
  return [
    ...originOf(voice.exotelUrl),
    ...originOf(voice.twilioUrl),
    ...(trustedByDb.get(db) ?? []),
  ]
}

const SANDBOX_SECONDS = 4
const SANDBOX_RATE = 8_000

/** A mono 16-bit PCM WAV of `seconds` of silence at 8 kHz (a phone line's rate). */
export function silentWav(seconds = SANDBOX_SECONDS): Buffer {
  const dataBytes = seconds * SANDBOX_RATE * 2
  const header = Buffer.alloc(44)
  header.write('RIFF', 0, 'ascii')
  header.writeUInt32LE(36 + dataBytes, 4)
  header.write('WAVE', 8, 'ascii')
  header.write('fmt ', 12, 'ascii')
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(1, 20)
  header.writeUInt16LE(1, 22)
  header.writeUInt32LE(SANDBOX_RATE, 24)
  header.writeUInt32LE(SANDBOX_RATE * 2, 28)
  header.writeUInt16LE(2, 32)
  header.writeUInt16LE(16, 34)
  header.write('data', 36, 'ascii')
  header.writeUInt32LE(dataBytes, 40)
  return Buffer.concat([header, Buffer.alloc(dataBytes)])
}

const EXOTEL_HOST = /(^|\.)exotel\.(com|in)$/i

export interface SourceInput {
  db: AppDb
  call: CallRow
  settings: VoiceSettingsRow | undefined
  voice: VoiceOptions
  signal: AbortSignal
}

/** Opens the recording's stream; RecordingDownloadError when there is none (yet) or it fails. */
export async function openRecordingSource(o: SourceInput): Promise<RecordingSource> {
  const contentType = recordingContentType(o.call.provider)
  if (o.call.provider === 'sandbox') return { body: Readable.from([silentWav()]), contentType }
  const row = o.settings
  if (!row || row.provider !== o.call.provider || !o.call.providerCallId)
    throw new RecordingDownloadError('refused', 'provider changed')
  const trusted = trustedOrigins(o.db, o.voice)
  const secret = (field: string) => {
    const stored = row.secrets[field]
    return stored ? decryptSecret(stored, voiceSecretContext(row.hospitalId, field)) : ''
  }
  const accountSid = row.settings.accountSid ?? ''
  if (o.call.provider === 'exotel') {
    const voice = hospitalVoice(row, row.hospitalId, o.voice)
    if (voice.kind !== 'exotel') throw new RecordingDownloadError('refused', 'not configured')
    const details = await voice.provider.fetchCall(o.call.providerCallId, o.signal)
    if (!details.recordingUrl) throw new RecordingDownloadError('missing', 'no RecordingUrl yet')
    const region = row.region ?? 'mumbai'
    const credentials = { accountSid, apiKey: '', apiToken: '', region }
    const account = new URL(exotelAccountUrl(credentials, o.voice.exotelUrl))
    const body = await openRecording({
      url: details.recordingUrl,
      authorization: basicAuth(row.settings.apiKey ?? '', secret('apiToken')),
      sendAuth: (u) =>
        u.origin === account.origin ||
        trusted.includes(u.origin) ||
        (u.protocol === 'https:' && EXOTEL_HOST.test(u.hostname)),
      trustedOrigins: trusted,
      signal: o.signal,
    })
    return { body, contentType }
  }
  const base = o.voice.twilioUrl.replace(/\/+$/, '')
  const account = `${base}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}`
  const authorization = basicAuth(accountSid, secret('authToken'))
  const list = await httpCall(
    `${account}/Recordings.json?CallSid=${encodeURIComponent(o.call.providerCallId)}`,
    { method: 'GET', headers: { authorization, accept: 'application/json' } },
    AbortSignal.any([o.signal, AbortSignal.timeout(VOICE_TIMEOUT_MS)]),
  ).catch(() => ({ unreachable: 'CONNECTION' }))
  if ('unreachable' in list) throw new RecordingDownloadError('busy', list.unreachable)
  if (list.status === 429 || list.status >= 500)
    throw new RecordingDownloadError('busy', `HTTP ${list.status}`)
  if (list.status !== 200) throw new RecordingDownloadError('refused', `HTTP ${list.status}`)
  const recordings = (list.json as { recordings?: { sid?: unknown }[] } | null)?.recordings
  const sid = recordings?.find((r) => typeof r.sid === 'string')?.sid as string | undefined
  if (!sid) throw new RecordingDownloadError('missing', 'no recording yet')
  const baseOrigin = new URL(base).origin
  const body = await openRecording({
    url: `${account}/Recordings/${encodeURIComponent(sid)}.mp3`,
    authorization,
    sendAuth: (u) => u.origin === baseOrigin,
    trustedOrigins: trusted,
    signal: o.signal,
  })
  return { body, contentType }
}
