import { useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { CallsReport } from '@/shared/schemas/calls-report'
import { liveMonitoringKey } from '../api/live-monitoring'

/** GET /api/calls/report for a range (admins); kept with Live Monitoring's reads. */
export function callsReportUrl(range: { from: string; to: string }, csv = false): string {
  const query = new URLSearchParams(range).toString()
  return `/api/calls/report${csv ? '.csv' : ''}?${query}`
}

export function useCallsReport(range: { from: string; to: string }) {
  return useQuery({
    queryKey: [...liveMonitoringKey, 'calls-report', range.from, range.to],
    queryFn: () => api.get<CallsReport>(callsReportUrl(range)),
    staleTime: 0,
  })
}
