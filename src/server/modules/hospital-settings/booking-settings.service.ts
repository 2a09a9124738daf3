import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import {
  type BookingSettings,
  bookingPath,
  type SaveBookingSettingsInput,
} from '../../../shared/schemas/hospital-settings'
import type { AppDb, Tx } from '../../db/client'
import { bookingSettings, services } from '../../db/schema/appointments'
import { user } from '../../db/schema/auth'
import { hospitals } from '../../db/schema/hospitals'
import { withPlatform, withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import type { SettingsOptions } from './hospital-settings.service'

/*
 * The booking page card of Settings → General (issue 26): whether /book/<slug> is on, which
 * doctors it offers (none listed: every doctor) and which services (services.bookable).
 * GET: any member; PUT: hospital:manage.
 */

export const NOT_OUR_DOCTORS = 'Choose doctors of this hospital'
export const NOT_OUR_SERVICES = 'Choose active services of this hospital'
export const NO_SERVICE_OFFERED = 'Choose at least one service to offer on the booking page'

interface Doctor {
  id: string
  name: string
}

/** Active members with the doctor role, by name (users is a platform table). */
async function doctorsOf(db: AppDb, hospitalId: string): Promise<Doctor[]> {
  return withPlatform(db, (tx) =>
    tx
      .select({ id: user.id, name: user.name })
      .from(user)
      .where(
        and(
          eq(user.hospitalId, hospitalId),
          eq(user.role, 'doctor'),
          eq(user.isActive, true),
          eq(user.banned, false),
          eq(user.isSuperAdmin, false),
        ),
      )
      .orderBy(asc(user.name), asc(user.id)),
  )
}

async function slugOf(db: AppDb, hospitalId: string): Promise<string> {
  const [row] = await withPlatform(db, (tx) =>
    tx.select({ slug: hospitals.slug }).from(hospitals).where(eq(hospitals.id, hospitalId)),
  )
  return row?.slug ?? ''
}

/** The stored settings and the active services, inside the hospital's tenant transaction. */
async function readBooking(tx: Tx) {
  const [row] = await tx
    .select({ enabled: bookingSettings.enabled, doctorIds: bookingSettings.doctorIds })
    .from(bookingSettings)
  const offered = await tx
    .select({ id: services.id, name: services.name, bookable: services.bookable })
    .from(services)
    .where(eq(services.active, true))
    .orderBy(asc(services.name), asc(services.id))
  return { enabled: row?.enabled ?? false, doctorIds: row?.doctorIds ?? [], services: offered }
}

function view(
  stored: Awaited<ReturnType<typeof readBooking>>,
  doctors: Doctor[],
  slug: string,
): BookingSettings {
  // Only doctors who are still active doctors here (a listed one may have left since).
  const current = new Set(doctors.map((d) => d.id))
  return {
    enabled: stored.enabled,
    doctorIds: stored.doctorIds.filter((id) => current.has(id)),
    services: stored.services,
    doctors,
    url: bookingPath(slug),
  }
}

/** GET /api/settings/booking */
export async function getBookingSettings(opts: SettingsOptions): Promise<BookingSettings> {
  const [doctors, slug] = await Promise.all([
    doctorsOf(opts.db, opts.hospitalId),
    slugOf(opts.db, opts.hospitalId),
  ])
  const stored = await withTenant(opts.db, opts, readBooking)
  return view(stored, doctors, slug)
}

function invalid(path: string, message: string): AppError {
  return new AppError('VALIDATION', `Invalid input: ${path}: ${message}`, [{ path, message }])
}

/**
 * PUT /api/settings/booking (hospital:manage): on or off, the doctors offered (each an active
 * doctor of this hospital) and the services offered (each an active service of this
 * hospital; another hospital's id is simply not found under RLS). A 400 changes nothing.
 */
export async function saveBookingSettings(
  opts: SettingsOptions & { values: SaveBookingSettingsInput },
): Promise<BookingSettings> {
  const { enabled, doctorIds, bookableServiceIds } = opts.values
  const [doctors, slug] = await Promise.all([
    doctorsOf(opts.db, opts.hospitalId),
    slugOf(opts.db, opts.hospitalId),
  ])
  const ours = new Set(doctors.map((d) => d.id))
  if (doctorIds.some((id) => !ours.has(id))) throw invalid('doctorIds', NOT_OUR_DOCTORS)
  const stored = await withTenant(opts.db, opts, async (tx) => {
    const found = bookableServiceIds.length
      ? await tx
          .select({ id: services.id })
          .from(services)
          .where(and(inArray(services.id, bookableServiceIds), eq(services.active, true)))
      : []
    if (found.length !== bookableServiceIds.length)
      throw invalid('bookableServiceIds', NOT_OUR_SERVICES)
    if (enabled && bookableServiceIds.length === 0)
      throw invalid('bookableServiceIds', NO_SERVICE_OFFERED)
    const before = await readBooking(tx)
    const now = new Date()
    await tx
      .insert(bookingSettings)
      .values({ hospitalId: opts.hospitalId, enabled, doctorIds, updatedAt: now })
      .onConflictDoUpdate({
        target: bookingSettings.hospitalId,
        set: { enabled, doctorIds, updatedAt: now },
      })
    // Active services: bookable exactly when listed (inactive ones keep their flag).
    const offer = bookableServiceIds.length ? inArray(services.id, bookableServiceIds) : sql`false`
    await tx
      .update(services)
      .set({ bookable: offer, updatedAt: now })
      .where(and(eq(services.active, true), sql`${services.bookable} <> (${offer})`))
    const wasOffered = before.services.filter((s) => s.bookable).map((s) => s.id)
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'booking.settings_saved',
      entityType: 'booking_settings',
      entityId: null,
      summary:
        `Booking page ${enabled ? 'on' : 'off'} (was ${before.enabled ? 'on' : 'off'}); ` +
        `doctors: ${doctorIds.length ? doctorIds.length : 'all'}; ` +
        `services: ${bookableServiceIds.length} (was ${wasOffered.length})`,
    })
    return readBooking(tx)
  })
  return view(stored, doctors, slug)
}
