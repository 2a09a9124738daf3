import { api } from '@/client/lib/api-client'
import type { CallEnded, CallStarted } from '@/shared/schemas/live-monitoring'

/** POST /api/leads/:id/calls: a call to the lead begins (Live Monitoring's call_start). */
export function startLeadCall(leadId: string): Promise<CallStarted> {
  return api.post<CallStarted>(`/api/leads/${leadId}/calls`)
}

/** POST /api/leads/:id/calls/:callId/end: it ended (call_end, with its duration). */
export function endLeadCall(leadId: string, callId: string): Promise<CallEnded> {
  return api.post<CallEnded>(`/api/leads/${leadId}/calls/${callId}/end`)
}
