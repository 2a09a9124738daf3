import { Download, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { ConsentList } from '@/client/components/messaging/components/consent-list'
import { Button } from '@/client/components/ui/button'
import { useCan, useUser } from '@/client/lib/current-user'
import { formatDate } from '@/shared/dates'
import type { Patient } from '@/shared/schemas/patients'
import { patientExportHref } from '../api/erase-patient'
import { ErasePatientDialog } from './erase-patient-dialog'

/**
 * The patient's data rights (DPDP Act 2023): their messaging consent records with Withdraw,
 * and for admins the record's export (JSON, CSV) and Erase patient. Hidden from roles that
 * cannot use them; the server enforces the same rules.
 */
export function DataRightsSection({ patient }: { patient: Patient }) {
  const isAdmin = useCan('data:delete')
  const canExport = useCan('data:export')
  const timeZone = useUser().data?.timeZone
  const [erasing, setErasing] = useState(false)
  const erased = Boolean(patient.erasedAt)
  return (
    <section
      aria-labelledby="data-rights-heading"
      className="min-w-0 space-y-4 rounded-lg border border-slate-200 p-4"
    >
      <h3 id="data-rights-heading" className="text-base font-semibold">
        Data rights
      </h3>
      {erased && patient.erasedAt ? (
        <p className="text-sm text-slate-700">
          Erased on {formatDate(patient.erasedAt, timeZone)} at the patient’s request.
        </p>
      ) : null}
      {canExport || isAdmin ? (
        <div className="flex flex-wrap gap-2">
          {canExport ? (
            <>
              <Button asChild variant="outline" size="sm">
                <a href={patientExportHref(patient.id, 'json')} download>
                  <Download aria-hidden="true" />
                  Export record (JSON)
                </a>
              </Button>
              <Button asChild variant="outline" size="sm">
                <a href={patientExportHref(patient.id, 'csv')} download>
                  <Download aria-hidden="true" />
                  Export record (CSV)
                </a>
              </Button>
            </>
          ) : null}
          {isAdmin && !erased ? (
            <Button variant="destructive" size="sm" onClick={() => setErasing(true)}>
              <Trash2 aria-hidden="true" />
              Erase patient
            </Button>
          ) : null}
        </div>
      ) : null}
      <div className="space-y-2">
        <h4 className="text-sm font-semibold text-slate-800">Messaging consent</h4>
        <ConsentList of={{ kind: 'patient', id: patient.id }} />
      </div>
      {/* Mounted until the section goes: the erase's success toast fires after the refetch. */}
      {isAdmin ? (
        <ErasePatientDialog patient={patient} open={erasing} onOpenChange={setErasing} />
      ) : null}
    </section>
  )
}
