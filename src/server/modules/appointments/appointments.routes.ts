import type { FastifyInstance } from 'fastify'
import {
  appointmentAvailabilityQuery,
  appointmentStatusInput,
  createAppointmentInput,
  editAppointmentInput,
  listAppointmentsQuery,
} from '../../../shared/schemas/appointments'
import { uuidParam } from '../../../shared/schemas/common'
import { TOTAL_COUNT_HEADER } from '../../../shared/total-count'
import { actingMember, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { editAppointment } from './appointment-edit'
import { changeAppointmentStatus } from './appointment-status'
import { getAppointment, listAppointmentsPage, upcomingAppointments } from './appointments.queries'
import { doctorAvailability } from './availability'
import { createAppointment } from './appointments.service'
import { listDoctors } from './context'
import { registerAppointmentJobs } from './reminder-job'

/** /api/appointments (issue 26): the list, the home page's upcoming, doctors, book, change. */
export function appointmentsRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  registerAppointmentJobs()
  const read = { config: requirePermission('appointments:read') }
  const write = { config: requirePermission('appointments:write') }

  app.get('/api/appointments', read, async (req, reply) => {
    const who = actingMember(req)
    const query = parse(listAppointmentsQuery, req.query, 'query')
    // The spec's answer stays an array; a paged request (when/page) also gets the total.
    const paged = query.when !== undefined || query.page !== undefined
    const page = await listAppointmentsPage({ db, ...who, ...query, count: paged })
    if (paged) void reply.header(TOTAL_COUNT_HEADER, String(page.total))
    return page.items
  })

  app.get('/api/appointments/availability', read, async (req) => {
    const who = actingMember(req)
    const query = parse(appointmentAvailabilityQuery, req.query, 'query')
    return doctorAvailability({ db, ...who, ...query })
  })

  app.get('/api/appointments/upcoming', read, async (req) => {
    const who = actingMember(req)
    return upcomingAppointments({ db, ...who })
  })

  app.get('/api/appointments/doctors', read, async (req) => {
    const who = actingMember(req)
    return listDoctors(db, who.hospitalId)
  })

  app.get('/api/appointments/:id', read, async (req) => {
    const who = actingMember(req)
    const { id } = parse(uuidParam, req.params, 'id')
    return getAppointment({ db, ...who, id })
  })

  app.post('/api/appointments', write, async (req, reply) => {
    const who = actingMember(req)
    const values = parse(createAppointmentInput, req.body)
    const created = await createAppointment({ db, ...who, values })
    return reply.status(201).send(created)
  })

  app.patch('/api/appointments/:id', write, async (req) => {
    const who = actingMember(req)
    const { id } = parse(uuidParam, req.params, 'id')
    const body: unknown = req.body
    if (body !== null && typeof body === 'object' && 'status' in body) {
      const { status, reason } = parse(appointmentStatusInput, body)
      return changeAppointmentStatus({ db, ...who, id, status, reason })
    }
    const values = parse(editAppointmentInput, body)
    return editAppointment({ db, ...who, id, values })
  })
}
