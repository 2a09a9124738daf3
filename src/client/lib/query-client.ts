import { QueryClient } from '@tanstack/react-query'
import { api } from './api-client'

/**
 * Spec section 9: data never goes stale by itself, no refetch on focus, no polling by
 * default, no retries. Default reads GET the joined query key path.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
        queryFn: ({ queryKey }) => api.get(queryKey.filter((k) => typeof k === 'string').join('/')),
      },
      mutations: { retry: false },
    },
  })
}
