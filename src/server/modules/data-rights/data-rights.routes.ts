import type { FastifyInstance } from 'fastify'
import { uuidParam } from '../../../shared/schemas/common'
import { erasePatientInput, exportFileName } from '../../../shared/schemas/data-rights'
import { actingMember, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { erasePatient } from './patient-erase.service'
import { exportCsv, exportPatient } from './patient-export.service'

/**
 * Patients' data rights (issue 27, DPDP Act 2023; docs/decisions/027-data-rights.md). Admins
 * only: the export holds the patient's audit trail (audit:read, admins only) and erasing is a
 * hospital-level decision (hospital:manage). Another hospital's patient: 404.
 */
export function dataRightsRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  const exporting = { config: requirePermission('data:export') }
  const erasing = { config: requirePermission('data:delete') }

  app.get('/api/patients/:id/export.json', exporting, async (req, reply) => {
    const { id } = parse(uuidParam, req.params, 'id')
    const { patientNumber, data } = await exportPatient({
      db,
      ...actingMember(req),
      id,
      format: 'json',
    })
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="${exportFileName(patientNumber, 'json')}"`,
      )
      .header('cache-control', 'no-store')
      .send(JSON.stringify(data, null, 2))
  })

  app.get('/api/patients/:id/export.csv', exporting, async (req, reply) => {
    const { id } = parse(uuidParam, req.params, 'id')
    const { patientNumber, data } = await exportPatient({
      db,
      ...actingMember(req),
      id,
      format: 'csv',
    })
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="${exportFileName(patientNumber, 'csv')}"`,
      )
      .header('cache-control', 'no-store')
      .send(exportCsv(data))
  })

  app.post('/api/patients/:id/erase', erasing, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    const { confirmName } = parse(erasePatientInput, req.body)
    return erasePatient({ db, ...actingMember(req), id, confirmName })
  })
}
