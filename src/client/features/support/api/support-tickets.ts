import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type {
  CreateTicketInput,
  SupportTicket,
  SupportTicketDetail,
  TicketComment,
} from '@/shared/schemas/support-tickets'

export const ticketsRootKey = ['support-tickets'] as const

/** GET /api/support-tickets: the hospital's tickets (or the caller's own), newest first. */
export function getTicketsQueryOptions() {
  return queryOptions({
    queryKey: [...ticketsRootKey, 'list'],
    queryFn: () => api.get<SupportTicket[]>('/api/support-tickets'),
  })
}

export function useTickets() {
  return useQuery(getTicketsQueryOptions())
}

/** GET /api/support-tickets/:id: the ticket with its thread and attachments. */
export function getTicketQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...ticketsRootKey, 'detail', id],
    queryFn: () => api.get<SupportTicketDetail>(`/api/support-tickets/${encodeURIComponent(id)}`),
  })
}

export function useTicket(id: string | null) {
  return useQuery({ ...getTicketQueryOptions(id ?? ''), enabled: Boolean(id) })
}

export function useCreateTicket() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: CreateTicketInput) =>
      api.post<SupportTicket>('/api/support-tickets', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketsRootKey }),
  })
}

export function useAddComment(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: string) =>
      api.post<TicketComment>(`/api/support-tickets/${encodeURIComponent(id)}/comments`, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketsRootKey }),
  })
}

export function useReopenTicket(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () =>
      api.post<SupportTicket>(`/api/support-tickets/${encodeURIComponent(id)}/reopen`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketsRootKey }),
  })
}
