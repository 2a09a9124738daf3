import type { FastifyInstance } from 'fastify'
import { NEXT_CURSOR_HEADER, uuidParam } from '../../../shared/schemas/common'
import {
  createPatientInput,
  listPatientsQuery,
  updatePatientInput,
} from '../../../shared/schemas/patients'
import { member, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { createPatient, getPatient, listPatients, updatePatient } from './patients.service'

export function patientsRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  const read = { config: requirePermission('patients:read') }
  const write = { config: requirePermission('patients:write') }

  app.get('/api/patients', read, async (req, reply) => {
    const actor = member(req)
    const query = parse(listPatientsQuery, req.query, 'query')
    const page = await listPatients({
      db,
      hospitalId: actor.hospitalId,
      userId: actor.userId,
      ...query,
    })
    if (page.nextCursor) void reply.header(NEXT_CURSOR_HEADER, page.nextCursor)
    return page.items
  })

  app.get('/api/patients/:id', read, async (req) => {
    const actor = member(req)
    const { id } = parse(uuidParam, req.params, 'id')
    return getPatient({ db, hospitalId: actor.hospitalId, userId: actor.userId, id })
  })

  app.post('/api/patients/manual', write, async (req, reply) => {
    const actor = member(req)
    const input = parse(createPatientInput, req.body)
    const created = await createPatient({
      db,
      hospitalId: actor.hospitalId,
      userId: actor.userId,
      values: { ...input, gender: input.gender ?? null },
    })
    return reply.status(201).send(created)
  })

  app.patch('/api/patients/:id', write, async (req) => {
    const actor = member(req)
    const { id } = parse(uuidParam, req.params, 'id')
    const input = parse(updatePatientInput, req.body)
    return updatePatient({
      db,
      hospitalId: actor.hospitalId,
      userId: actor.userId,
      id,
      values: input,
    })
  })
}
