import { useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import { useCan } from '@/client/lib/current-user'
import type { Call } from '@/shared/schemas/calls'
import type { Communication } from '@/shared/schemas/leads'

/** The call a Communication of type 'call' records (metadata.callId), when answered. */
function answeredCallId(c: Communication): string | null {
  if (c.type !== 'call' || c.metadata.outcome !== 'answered') return null
  return typeof c.metadata.callId === 'string' ? c.metadata.callId : null
}

/**
 * A call's recording in the history (issue 41): an audio player for staff with
 * calls:recordings (admins and doctors by default; the server refuses everyone else), nothing
 * for the others, nothing when the hospital did not record the call. Loaded only on play.
 */
export function CallRecording({ c }: { c: Communication }) {
  const allowed = useCan('calls:recordings')
  const callId = answeredCallId(c)
  const call = useQuery({
    // The calls feature's key for one call (features/calls/api/calls.ts callKey): one cache.
    queryKey: ['/api/calls', 'one', callId ?? ''],
    queryFn: () => api.get<Call>(`/api/calls/${encodeURIComponent(callId ?? '')}`),
    enabled: allowed && callId !== null,
  })
  if (!allowed || !callId || !call.data) return null
  if (!call.data.hasRecording) {
    return call.data.recordingNote ? (
      <p className="mt-1 text-xs text-slate-600">{call.data.recordingNote}</p>
    ) : null
  }
  return (
    <audio
      className="mt-2 w-full max-w-sm"
      controls
      preload="none"
      src={`/api/calls/${encodeURIComponent(callId)}/recording`}
      aria-label="Recording of this call"
      data-testid="call-recording"
    />
  )
}
