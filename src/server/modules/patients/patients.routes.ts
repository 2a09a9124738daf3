import type { FastifyInstance } from 'fastify'
import { NEXT_CURSOR_HEADER, uuidParam } from '../../../shared/schemas/common'
import {
  createPatientInput,
  listPatientsQuery,
  phoneMatchesQuery,
  TOTAL_COUNT_HEADER,
  updatePatientInput,
} from '../../../shared/schemas/patients'
import { actingMember, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { findPhoneMatches } from './patients.search'
import { createPatient, getPatient, listPatients, updatePatient } from './patients.service'

export function patientsRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  const read = { config: requirePermission('patients:read') }
  const write = { config: requirePermission('patients:write') }

  app.get('/api/patients', read, async (req, reply) => {
    const who = actingMember(req)
    const query = parse(listPatientsQuery, req.query, 'query')
    const page = await listPatients({
      db,
      ...who,
      ...query,
      count: query.count === '1',
    })
    if (page.nextCursor) void reply.header(NEXT_CURSOR_HEADER, page.nextCursor)
    if (page.total !== null) void reply.header(TOTAL_COUNT_HEADER, String(page.total))
    return page.items
  })

  // Before /:id in the source for readers; Fastify matches the static path first anyway.
  app.get('/api/patients/duplicates', read, async (req) => {
    const who = actingMember(req)
    const query = parse(phoneMatchesQuery, req.query, 'query')
    return findPhoneMatches({ db, ...who, ...query })
  })

  app.get('/api/patients/:id', read, async (req) => {
    const who = actingMember(req)
    const { id } = parse(uuidParam, req.params, 'id')
    return getPatient({ db, ...who, id })
  })

  app.post('/api/patients/manual', write, async (req, reply) => {
    const who = actingMember(req)
    const input = parse(createPatientInput, req.body)
    const created = await createPatient({
      db,
      ...who,
      values: { ...input, gender: input.gender ?? null },
    })
    return reply.status(201).send(created)
  })

  app.patch('/api/patients/:id', write, async (req) => {
    const who = actingMember(req)
    const { id } = parse(uuidParam, req.params, 'id')
    const input = parse(updatePatientInput, req.body)
    return updatePatient({
      db,
      ...who,
      id,
      values: input,
    })
  })
}
