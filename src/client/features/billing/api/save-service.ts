import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type {
  CatalogueService,
  CreateServiceInput,
  UpdateServiceInput,
} from '@/shared/schemas/billing'
import { servicesKey } from './get-services'

/** POST /api/services (no id) or PATCH /api/services/:id. */
export function saveService(
  args: { id: null; input: CreateServiceInput } | { id: string; input: UpdateServiceInput },
): Promise<CatalogueService> {
  return args.id === null
    ? api.post<CatalogueService>('/api/services', args.input)
    : api.patch<CatalogueService>(`/api/services/${encodeURIComponent(args.id)}`, args.input)
}

export function useSaveService() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveService,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: servicesKey }),
  })
}
