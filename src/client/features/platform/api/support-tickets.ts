import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import type {
  AdminSupportTicket,
  SupportTicketDetail,
  SupportTicketSummary,
  TicketStatus,
} from '@/shared/schemas/support-tickets'
import { adminKey } from './admin-key'

export type TicketFilter = TicketStatus | 'all'
const ticketsKey = [...adminKey, 'support-tickets'] as const
const base = (hospitalId: string, id: string) => `/api/admin/support-tickets/${hospitalId}/${id}`

/** GET /api/admin/support-tickets: every hospital's tickets, by status. */
export function useAdminTickets(status: TicketFilter) {
  return useQuery({
    queryKey: [...ticketsKey, 'list', status],
    queryFn: () =>
      api.get<AdminSupportTicket[]>(`/api/admin/support-tickets${toQuery({ status })}`),
    placeholderData: keepPreviousData,
  })
}

/** GET /api/admin/support-tickets/summary: open tickets by age. */
export function useTicketSummary() {
  return useQuery({
    queryKey: [...ticketsKey, 'summary'],
    queryFn: () => api.get<SupportTicketSummary>('/api/admin/support-tickets/summary'),
  })
}

export function useAdminTicket(ticket: { hospitalId: string; id: string } | null) {
  return useQuery({
    queryKey: [...ticketsKey, 'detail', ticket?.hospitalId, ticket?.id],
    queryFn: () =>
      api.get<SupportTicketDetail & { hospitalName: string; assignedToName: string | null }>(
        base(ticket?.hospitalId ?? '', ticket?.id ?? ''),
      ),
    enabled: Boolean(ticket),
  })
}

type Action =
  | { kind: 'assign'; assignedTo: string | null }
  | { kind: 'status'; status: TicketStatus; resolutionNotes?: string }
  | { kind: 'comment'; body: string }

export function useTicketAction(ticket: { hospitalId: string; id: string }) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (action: Action) => {
      const url = base(ticket.hospitalId, ticket.id)
      if (action.kind === 'assign')
        return api.post(`${url}/assign`, { assignedTo: action.assignedTo })
      if (action.kind === 'comment') return api.post(`${url}/comments`, { body: action.body })
      return api.post(`${url}/status`, {
        status: action.status,
        ...(action.resolutionNotes ? { resolutionNotes: action.resolutionNotes } : {}),
      })
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketsKey }),
  })
}
