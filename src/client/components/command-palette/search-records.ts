import { useQuery } from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import { can } from '@/shared/permissions'
import { formatPhone } from '@/shared/phone-format'
import type { CurrentUser } from '@/shared/schemas/auth'
import type { LeadsPage } from '@/shared/schemas/leads'
import type { Patient } from '@/shared/schemas/patients'

/** Results per kind: the palette names a few, the list screens show the rest. */
export const RESULTS_PER_KIND = 5
/** Shorter text finds too much to be useful. */
export const MIN_SEARCH_LENGTH = 2

export interface FoundRecord {
  id: string
  name: string
  /** Phone, patient number: what tells two of the same name apart. */
  detail: string
}

/** GET /api/patients?search= (name, phone or patient number), first few only. */
async function findPatients(search: string): Promise<FoundRecord[]> {
  const rows = await api.get<Patient[]>(
    `/api/patients${toQuery({ search, limit: RESULTS_PER_KIND })}`,
  )
  return rows.map((p) => ({
    id: p.id,
    name: p.name,
    detail: `${p.patientNumber} · ${formatPhone(p.phone)}`,
  }))
}

/** GET /api/leads?search= (name, phone or email), first few only. */
async function findLeads(search: string): Promise<FoundRecord[]> {
  const page = await api.get<LeadsPage>(`/api/leads${toQuery({ search, limit: RESULTS_PER_KIND })}`)
  return page.leads.map((l) => ({ id: l.id, name: l.name, detail: formatPhone(l.phone) }))
}

/**
 * Patients and leads matching the (already debounced) search, each asked only when the
 * user's role may read them and the text is long enough.
 */
export function useRecordSearch(user: CurrentUser, search: string) {
  const member = user.hospitalId !== null
  const long = search.length >= MIN_SEARCH_LENGTH
  const patients = useQuery({
    queryKey: ['/api/patients', 'palette', search],
    queryFn: () => findPatients(search),
    enabled: long && member && can(user.role, 'patients:read'),
  })
  const leads = useQuery({
    queryKey: ['/api/leads', 'palette', search],
    queryFn: () => findLeads(search),
    enabled: long && member && can(user.role, 'leads:read'),
  })
  return { patients, leads }
}
