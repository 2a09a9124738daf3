import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { api } from '@/client/lib/api-client'
import { useCan } from '@/client/lib/current-user'
import { unreadKey } from './keys'

/** POST /api/patients/:id/read: the patient's inbound replies count as read (the bell drops). */
export function markPatientRead(id: string): Promise<null> {
  return api.post<null>(`/api/patients/${encodeURIComponent(id)}/read`, {})
}

/** Marks the patient's replies read once per opening of their details (users who may write). */
export function useMarkPatientReadOnOpen(id: string | null) {
  const canWrite = useCan('patients:write')
  const queryClient = useQueryClient()
  const { mutate } = useMutation({
    mutationFn: markPatientRead,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: unreadKey }),
        queryClient.invalidateQueries({ queryKey: ['/api/stats'] }),
      ]),
  })
  const done = useRef<string | null>(null)
  useEffect(() => {
    if (!id) done.current = null
    if (!id || !canWrite || done.current === id) return
    done.current = id
    mutate(id)
  }, [id, canWrite, mutate])
}
