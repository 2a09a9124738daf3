import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import type {
  CreatedHospital,
  CreateHospitalInput,
  HospitalDetail,
  HospitalList,
  UpdateHospitalInput,
} from '@/shared/schemas/platform'
import { adminKey } from './admin-key'

export interface HospitalFilter {
  q: string
  status: string
}

export function getHospitals(filter: HospitalFilter): Promise<HospitalList> {
  return api.get<HospitalList>(
    `/api/admin/hospitals${toQuery({ q: filter.q, status: filter.status, limit: 100 })}`,
  )
}

export function getHospitalsQueryOptions(filter: HospitalFilter) {
  return queryOptions({
    queryKey: [...adminKey, 'hospitals', filter],
    queryFn: () => getHospitals(filter),
    placeholderData: keepPreviousData,
  })
}

export function useHospitals(filter: HospitalFilter) {
  return useQuery(getHospitalsQueryOptions(filter))
}

export function useHospital(id: string | null) {
  return useQuery({
    queryKey: [...adminKey, 'hospital', id],
    queryFn: () => api.get<HospitalDetail>(`/api/admin/hospitals/${id ?? ''}`),
    enabled: id !== null,
  })
}

export function useCreateHospital() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: CreateHospitalInput) =>
      api.post<CreatedHospital>('/api/admin/hospitals', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKey }),
  })
}

export function useUpdateHospital(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: UpdateHospitalInput) =>
      api.patch<HospitalDetail>(`/api/admin/hospitals/${id}`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKey }),
  })
}
