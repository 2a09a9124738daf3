import type { FastifyInstance } from 'fastify'
import {
  bookingHoldParams,
  bookingSlotsQuery,
  bookingSlugParams,
  confirmBookingInput,
  createBookingHoldInput,
} from '../../../shared/schemas/booking'
import { publicRoute } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { bookingCodeKey } from './booking-code'
import { confirmBooking } from './booking-confirm.service'
import { createBookingHold } from './booking-holds.service'
import { bookingPageRoute } from './booking-html'
import { getBookingPage, getBookingSlots } from './booking.service'

/**
 * The public booking page's API (issue 26, "Patients book themselves"): no sign-in; the slug
 * names the hospital. Abuse limits per mobile and per IP live in the services (booking-limits).
 */
export function bookingRoutes(
  app: FastifyInstance,
  deps: {
    db: AppDb
    /** The server's signing secret: the code hashes' key is derived from it. */
    secret: string
    /** The built client (serves /book/:slug with its own head tags); absent in API tests. */
    clientDir?: string | undefined
    baseURL?: string | undefined
  },
): void {
  const { db } = deps
  const codeKey = bookingCodeKey(deps.secret)
  const noStore = { 'cache-control': 'no-store' }

  app.get('/api/public/booking/:slug', { config: publicRoute }, async (req, reply) => {
    const { slug } = parse(bookingSlugParams, req.params, 'slug')
    return reply.headers(noStore).send(await getBookingPage(db, slug))
  })

  app.get('/api/public/booking/:slug/slots', { config: publicRoute }, async (req, reply) => {
    const { slug } = parse(bookingSlugParams, req.params, 'slug')
    const query = parse(bookingSlotsQuery, req.query, 'query')
    return reply.headers(noStore).send(await getBookingSlots(db, slug, query))
  })

  app.post('/api/public/booking/:slug/holds', { config: publicRoute }, async (req, reply) => {
    const { slug } = parse(bookingSlugParams, req.params, 'slug')
    const input = parse(createBookingHoldInput, req.body)
    const hold = await createBookingHold({ db, codeKey, slug, input, ip: req.ip })
    return reply.status(201).headers(noStore).send(hold)
  })

  app.post(
    '/api/public/booking/:slug/holds/:id/confirm',
    { config: publicRoute },
    async (req, reply) => {
      const { slug, id } = parse(bookingHoldParams, req.params, 'id')
      const { code } = parse(confirmBookingInput, req.body)
      const booked = await confirmBooking({ db, codeKey, slug, holdId: id, code, ip: req.ip })
      return reply.status(201).headers(noStore).send(booked)
    },
  )

  if (deps.clientDir)
    bookingPageRoute(app, { db, clientDir: deps.clientDir, baseURL: deps.baseURL })
}
