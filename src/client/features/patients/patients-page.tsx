import { Plus } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { Link, useLocation, useSearch } from 'wouter'
import { Button } from '@/client/components/ui/button'
import { useCan } from '@/client/lib/current-user'
import { useDebouncedValue } from '@/client/lib/use-debounced-value'
import { paths } from '@/client/paths'
import type { Patient, PatientSort } from '@/shared/schemas/patients'
import { usePatients } from './api/get-patients'
import type { Viewing } from './components/patient-details-dialog'
import { countText, PatientsResults } from './components/patients-results'
import { PatientsToolbar } from './components/patients-toolbar'
import { usePatientsView } from './use-patients-view'

// The details and the edit form (and the phone check they bring: libphonenumber's `max`
// metadata) load when a patient is first opened or edited, not with the list.
const PatientDetailsDialog = lazy(() =>
  import('./components/patient-details-dialog').then((m) => ({ default: m.PatientDetailsDialog })),
)
const EditPatientDialog = lazy(() =>
  import('./components/edit-patient-dialog').then((m) => ({ default: m.EditPatientDialog })),
)

/** /patients: search and browse the hospital's patients; ?open=<id> opens one's details. */
export function PatientsPage() {
  const [searchText, setSearchText] = useState('')
  const search = useDebouncedValue(searchText.trim(), 250)
  const [sort, setSort] = useState<PatientSort>('recent')
  const query = usePatients(search, sort)
  const { view, canChoose, choose } = usePatientsView()
  const openId = new URLSearchParams(useSearch()).get('open')
  const [viewing, setViewing] = useState<Viewing | null>(openId ? { id: openId } : null)
  const [seenOpenId, setSeenOpenId] = useState(openId)
  if (openId !== seenOpenId) {
    setSeenOpenId(openId)
    if (openId) setViewing({ id: openId })
  }
  const [editing, setEditing] = useState<Patient | null>(null)
  const [, navigate] = useLocation()
  const canWrite = useCan('patients:write')
  const total = query.data?.pages[0]?.total

  function closeDetails() {
    setViewing(null)
    if (openId) navigate(paths.patients, { replace: true })
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Patients</h1>
        {canWrite ? (
          <Button asChild>
            <Link href={paths.manualPatient}>
              <Plus aria-hidden="true" /> New Patient
            </Link>
          </Button>
        ) : null}
      </div>
      <PatientsToolbar
        searchText={searchText}
        onSearchText={setSearchText}
        sort={sort}
        onSort={setSort}
        view={view}
        onView={choose}
        canChooseView={canChoose}
      />
      <p
        role="status"
        data-testid="patients-count"
        className="min-h-5 text-sm text-slate-600 [overflow-wrap:anywhere]"
      >
        {query.isSuccess && typeof total === 'number' ? countText(total, search) : ''}
      </p>
      <PatientsResults
        query={query}
        search={search}
        view={view}
        onView={(p) => setViewing({ id: p.id, shown: p })}
        onEdit={canWrite ? setEditing : undefined}
        onSchedule={(p) => navigate(`${paths.appointments}?patientId=${p.id}`)}
      />
      {viewing ? (
        <Suspense fallback={null}>
          <PatientDetailsDialog viewing={viewing} onClose={closeDetails} />
        </Suspense>
      ) : null}
      {editing ? (
        <Suspense fallback={null}>
          <EditPatientDialog patient={editing} onClose={() => setEditing(null)} />
        </Suspense>
      ) : null}
    </div>
  )
}
