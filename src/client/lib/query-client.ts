import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query'
import { ApiError, api } from './api-client'
import { getUserQueryOptions } from './current-user'

/** The server refuses a platform account without two-factor everything but enrolment. */
function mustEnrol(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && error.code === 'TWO_FACTOR_REQUIRED'
}

/** The hospital became read-only, or support access ended: the user's banner must change. */
function accessChanged(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status === 403 &&
    (error.code === 'HOSPITAL_READ_ONLY' || error.code === 'SUPPORT_ACCESS_ENDED')
  )
}

/**
 * Spec section 9: data never goes stale by itself, no refetch on focus, no polling by
 * default, no retries. Default reads GET the joined query key path. A call refused with
 * TWO_FACTOR_REQUIRED reloads the current user, so the enrolment screen takes over.
 */
export function createQueryClient(): QueryClient {
  const onError = (error: unknown) => {
    if (mustEnrol(error) || accessChanged(error))
      void client.invalidateQueries(getUserQueryOptions())
  }
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
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
  return client
}
