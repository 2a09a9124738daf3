import { Plus, Search, Users } from 'lucide-react'
import { useState } from 'react'
import { Link, useLocation } from 'wouter'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { Input } from '@/client/components/ui/input'
import { Skeleton } from '@/client/components/ui/skeleton'
import { Spinner } from '@/client/components/ui/spinner'
import { ApiError } from '@/client/lib/api-client'
import { useCan } from '@/client/lib/current-user'
import { useDebouncedValue } from '@/client/lib/use-debounced-value'
import { useOnInView } from '@/client/lib/use-in-view'
import { paths } from '@/client/paths'
import type { Patient } from '@/shared/schemas/patients'
import { usePatients } from './api/get-patients'
import { EditPatientDialog } from './components/edit-patient-dialog'
import { PatientCard } from './components/patient-card'
import { PatientDetailsDialog } from './components/patient-details-dialog'

function LoadingCards() {
  return (
    <div className="grid gap-4 lg:grid-cols-2" aria-busy="true" aria-label="Loading patients">
      {[0, 1, 2].map((i) => (
        <Card key={i} data-testid="patient-skeleton">
          <CardContent className="space-y-3 p-5">
            <Skeleton className="h-6 w-1/2" />
            <Skeleton className="h-4 w-3/4" />
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-16 w-full" />
          </CardContent>
        </Card>
      ))}
    </div>
  )
}

/** /patients: search and browse the hospital's patients. */
export function PatientsPage() {
  const [searchText, setSearchText] = useState('')
  const search = useDebouncedValue(searchText.trim(), 250)
  const query = usePatients(search)
  const [viewing, setViewing] = useState<Patient | null>(null)
  const [editing, setEditing] = useState<Patient | null>(null)
  const [, navigate] = useLocation()
  const canWrite = useCan('patients:write')
  const patients = query.data?.pages.flatMap((p) => p.items) ?? []
  const sentinel = useOnInView<HTMLDivElement>(() => {
    if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage()
  }, Boolean(query.hasNextPage))

  return (
    <div className="space-y-6">
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
      <div className="relative">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500"
          aria-hidden="true"
        />
        <Input
          type="search"
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
          placeholder="Search patients by name, email, or phone..."
          aria-label="Search patients"
          className="pl-9"
        />
      </div>

      {query.isPending ? (
        <LoadingCards />
      ) : query.isError ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
            <p className="font-medium">Failed to fetch patients</p>
            <p className="text-sm text-slate-600">
              {query.error instanceof ApiError ? query.error.serverMessage : query.error.message}
            </p>
            <Button variant="outline" onClick={() => void query.refetch()}>
              Try again
            </Button>
          </CardContent>
        </Card>
      ) : patients.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-2 p-10 text-center">
            <Users className="size-10 text-slate-400" aria-hidden="true" />
            <p className="text-lg font-medium">No patients found</p>
            <p className="text-sm text-slate-600">
              {search ? 'Try adjusting your search' : 'Add your first patient'}
            </p>
          </CardContent>
        </Card>
      ) : (
        <>
          <div className="grid gap-4 lg:grid-cols-2">
            {patients.map((p) => (
              <PatientCard
                key={p.id}
                patient={p}
                onView={() => setViewing(p)}
                onEdit={canWrite ? () => setEditing(p) : undefined}
                onSchedule={() => navigate(`${paths.appointments}?patientId=${p.id}`)}
              />
            ))}
          </div>
          <div ref={sentinel} className="flex justify-center py-4">
            {query.isFetchingNextPage ? (
              <Spinner label="Loading more patients" className="size-6" />
            ) : null}
          </div>
        </>
      )}
      <PatientDetailsDialog patient={viewing} onClose={() => setViewing(null)} />
      <EditPatientDialog patient={editing} onClose={() => setEditing(null)} />
    </div>
  )
}
