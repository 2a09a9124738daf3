import type { QueryClient } from '@tanstack/react-query'
import { getUserQueryOptions } from './current-user'

/**
 * After a super admin enters or leaves a hospital (decision 029): the signed-in user is read
 * again (its hospital changed) and every other cached answer, which belonged to the place just
 * left, is dropped.
 */
export async function afterSupportVisitChange(queryClient: QueryClient): Promise<void> {
  const userKey = getUserQueryOptions().queryKey
  await queryClient.refetchQueries({ queryKey: userKey, exact: true })
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== userKey[0] })
}
