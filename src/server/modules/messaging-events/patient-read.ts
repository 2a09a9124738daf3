import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { noBody, uuidParam } from '../../../shared/schemas/common'
import { actingMember, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { patients } from '../../db/schema/patients'
import { withTenant } from '../../db/tenant'
import { notFound } from '../../http/app-error'
import { parse } from '../../http/parse'
import { markInboundRead } from '../messaging/mark-read'
import type { TenantOptions } from '../patients/patients.service'

/**
 * POST /api/patients/:id/read: the patient's unread inbound messages are seen (the bell), as
 * POST /api/leads/:id/read does for a lead: a reply from a patient who was never a lead would
 * otherwise stay on the bell for ever. Audited when something changed; 404 for another
 * hospital's patient.
 */
export async function markPatientMessagesRead(
  opts: TenantOptions & { patientId: string },
): Promise<void> {
  await withTenant(opts.db, opts, async (tx) => {
    const [patient] = await tx
      .select({ id: patients.id, name: patients.name })
      .from(patients)
      .where(eq(patients.id, opts.patientId))
    if (!patient) throw notFound('Patient')
    await markInboundRead(tx, opts, { kind: 'patient', id: patient.id, name: patient.name })
  })
}

export function patientReadRoutes(app: FastifyInstance, deps: { db: AppDb }): void {
  app.post(
    '/api/patients/:id/read',
    { config: requirePermission('patients:write') },
    async (req, reply) => {
      const who = actingMember(req)
      const { id } = parse(uuidParam, req.params, 'id')
      parse(noBody, req.body)
      await markPatientMessagesRead({ db: deps.db, ...who, patientId: id })
      return reply.status(204).send()
    },
  )
}
