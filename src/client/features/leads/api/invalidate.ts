import type { QueryClient } from '@tanstack/react-query'
import { leadsRootKey } from './get-leads'
import { statsKey } from './get-stats'

/** After any change to leads: lists, details, histories and the figures all refresh. */
export function invalidateLeads(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: leadsRootKey }),
    queryClient.invalidateQueries({ queryKey: statsKey }),
  ]).then(() => undefined)
}
