import { queryOptions, useQuery } from '@tanstack/react-query'
import { can, type Permission } from '@/shared/permissions'
import type { CurrentUser } from '@/shared/schemas/auth'
import { hasSignedInHint } from '@/shared/signed-in-hint'
import { ApiError, api } from '@/client/lib/api-client'

/** Who is signed in: null, without a request, when this browser holds no session cookie. */
export async function getUser(): Promise<CurrentUser | null> {
  if (!hasSignedInHint(document.cookie)) return null
  try {
    return await api.get<CurrentUser>('/api/auth/user')
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null
    throw error
  }
}

export function getUserQueryOptions() {
  return queryOptions({ queryKey: ['/api/auth/user'], queryFn: getUser, retry: false })
}

/** The signed-in user, or null when signed out. */
export function useUser() {
  return useQuery(getUserQueryOptions())
}

/** Whether the signed-in user's role holds a permission (the server enforces the same table). */
export function useCan(permission: Permission): boolean {
  const { data } = useUser()
  return data ? can(data.role, permission) : false
}
