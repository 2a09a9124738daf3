import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { StaffMember } from '@/shared/schemas/leads'

/** GET /api/staff: the hospital's active staff, for the assignee picker. */
export async function getStaff(): Promise<StaffMember[]> {
  return (await api.get<{ staff: StaffMember[] }>('/api/staff')).staff
}

export function getStaffQueryOptions() {
  return queryOptions({ queryKey: ['/api/staff'], queryFn: getStaff })
}

export function useStaff(enabled = true) {
  return useQuery({ ...getStaffQueryOptions(), enabled })
}
