import { and, asc, eq, inArray } from 'drizzle-orm'
import { DEFAULT_TIME_ZONE } from '../../../shared/dates'
import type { AppointmentDoctor } from '../../../shared/schemas/appointments'
import { defaultReminderOffsets, defaultWorkingHours } from '../../../shared/scheduling'
import type { WorkingHours } from '../../../shared/scheduling'
import type { AppDb } from '../../db/client'
import { user } from '../../db/schema/auth'
import { hospitals } from '../../db/schema/hospitals'
import { withPlatform } from '../../db/tenant'
import { AppError } from '../../http/app-error'

/*
 * What an appointment needs from platform tables (app_user reads neither hospitals nor users):
 * read as the platform BEFORE the tenant transaction, always narrowed to the caller's hospital.
 */

/** The hospital's name, zone, working hours and reminder offsets (minutes before the start). */
export interface HospitalContext {
  name: string
  timeZone: string
  workingHours: WorkingHours
  reminderOffsets: number[]
}

export const defaultHospitalContext: HospitalContext = {
  name: '',
  timeZone: DEFAULT_TIME_ZONE,
  workingHours: defaultWorkingHours,
  reminderOffsets: [...defaultReminderOffsets],
}

export async function hospitalContext(db: AppDb, hospitalId: string): Promise<HospitalContext> {
  const [row] = await withPlatform(db, (tx) =>
    tx
      .select({
        name: hospitals.name,
        timeZone: hospitals.timeZone,
        workingHours: hospitals.workingHours,
        reminderOffsets: hospitals.reminderOffsets,
      })
      .from(hospitals)
      .where(eq(hospitals.id, hospitalId)),
  )
  return row ?? defaultHospitalContext
}

/** Active members of the hospital with the doctor role (nobody suspended or banned). */
const activeDoctorsOf = (hospitalId: string) =>
  and(
    eq(user.hospitalId, hospitalId),
    eq(user.role, 'doctor'),
    eq(user.isActive, true),
    eq(user.banned, false),
    eq(user.isSuperAdmin, false),
  )

/** GET /api/appointments/doctors: the hospital's active doctors, by name. */
export async function listDoctors(db: AppDb, hospitalId: string): Promise<AppointmentDoctor[]> {
  return withPlatform(db, (tx) =>
    tx
      .select({ id: user.id, name: user.name })
      .from(user)
      .where(activeDoctorsOf(hospitalId))
      .orderBy(asc(user.name), asc(user.id)),
  )
}

export const NOT_A_DOCTOR = 'Choose an active doctor of this hospital'

/** The doctor's name, or a 400 on doctorId when they are not an active doctor of the hospital. */
export async function assertDoctor(
  db: AppDb,
  hospitalId: string,
  doctorId: string,
): Promise<string> {
  const [row] = await withPlatform(db, (tx) =>
    tx
      .select({ name: user.name })
      .from(user)
      .where(and(eq(user.id, doctorId), activeDoctorsOf(hospitalId))),
  )
  if (row) return row.name
  throw new AppError('VALIDATION', `Invalid input: doctorId: ${NOT_A_DOCTOR}`, [
    { path: 'doctorId', message: NOT_A_DOCTOR },
  ])
}

/** Names of the hospital's users by id (another hospital's users are left out). */
export async function doctorNames(
  db: AppDb,
  hospitalId: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)]
  if (!wanted.length) return new Map()
  const rows = await withPlatform(db, (tx) =>
    tx
      .select({ id: user.id, name: user.name })
      .from(user)
      .where(and(eq(user.hospitalId, hospitalId), inArray(user.id, wanted))),
  )
  return new Map(rows.map((r) => [r.id, r.name]))
}

/** 'Dr. Ananya Rao' (a name that already starts with Dr. is kept). */
export function doctorLabel(name: string | null | undefined): string {
  if (!name) return 'The doctor'
  return /^dr\.?\s/i.test(name) ? name : `Dr. ${name}`
}
