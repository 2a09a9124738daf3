import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { defaultWorkingHours, type WorkingHours } from '../../../shared/scheduling'
import type { HospitalContext } from '../../modules/appointments/context'
import { scheduleReminders } from '../../modules/appointments/reminders'
import type { Tx } from '../client'
import { appointments, services } from '../schema/appointments'
import { user } from '../schema/auth'
import { hospitals } from '../schema/hospitals'
import { patients } from '../schema/patients'
import { planAppointments, type PlanDoctor } from './appointment-plan'
import type { DemoHospital } from './demo'
import { doctorPlans } from './demo-staff'
import { createRng } from './patients'

/*
 * The demo's appointments (issue 26, issue 40): per demo hospital a week back and ten days
 * ahead for each of its doctors, by the doctor's specialty, days and hours (appointment-plan.ts).
 * The visits that already happened are history (rows as they ended up); each appointment still
 * ahead gets its reminders from scheduleReminders, the function a booking uses (the patient's
 * preferred channel, opt-outs honoured, a job at each due time).
 */

export async function seedDemoAppointments(
  tx: Tx,
  demo: readonly DemoHospital[],
  now: Date,
): Promise<boolean> {
  await tx.execute(sql`set local role none`)
  const rows = await tx
    .select({
      id: hospitals.id,
      email: hospitals.email,
      name: hospitals.name,
      timeZone: hospitals.timeZone,
      workingHours: hospitals.workingHours,
      reminderOffsets: hospitals.reminderOffsets,
    })
    .from(hospitals)
    .where(
      inArray(
        hospitals.email,
        demo.map((h) => h.email),
      ),
    )
  const staff = rows.length
    ? await tx
        .select({
          id: user.id,
          name: user.name,
          email: user.email,
          role: user.role,
          hospitalId: user.hospitalId,
        })
        .from(user)
        .where(
          and(
            inArray(
              user.hospitalId,
              rows.map((r) => r.id),
            ),
            eq(user.isActive, true),
          ),
        )
        .orderBy(asc(user.email))
    : []
  let changed = false
  for (const [index, h] of demo.entries()) {
    const row = rows.find((r) => r.email === h.email)
    if (!row) continue
    const plans = doctorPlans(h.key)
    const own = staff.filter((s) => s.hospitalId === row.id && s.role === 'doctor')
    // Demo doctors keep their plan; any other doctor sees general patients all week.
    const doctors: PlanDoctor[] = own.map((d) => ({
      id: d.id,
      plan: plans.get(d.email) ?? {
        specialty: h.clinic === 'dental' ? 'dental' : 'general medicine',
        days: [1, 2, 3, 4, 5, 6],
        hours: ['10:00', '17:00'],
        services: ['OPD consultation', 'Follow-up consultation'],
      },
    }))
    const desk = staff.find((s) => s.hospitalId === row.id && s.role === 'receptionist')
    if (!doctors.length) continue
    await tx.execute(
      sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${row.id}, true)`,
    )
    const [done] = await tx.select({ id: appointments.id }).from(appointments).limit(1)
    if (done) continue
    const catalogue = await tx
      .select({ id: services.id, name: services.name, durationMinutes: services.durationMinutes })
      .from(services)
      .where(eq(services.active, true))
    const people = await tx
      .select({
        id: patients.id,
        gender: patients.gender,
        dateOfBirth: patients.dateOfBirth,
        createdAt: patients.createdAt,
      })
      .from(patients)
      .orderBy(asc(patients.createdAt), asc(patients.id))
    if (!catalogue.length || !people.length) continue
    const hours: WorkingHours = row.workingHours ?? defaultWorkingHours
    const plan = planAppointments({
      doctors,
      patients: people,
      catalogue,
      workingHours: hours,
      timeZone: row.timeZone,
      now,
      rng: createRng(2626 + index),
    })
    if (!plan.length) continue
    const inserted = await tx
      .insert(appointments)
      .values(
        plan.map(({ statusChangedAt, ...planned }) => {
          const { specialty, ...a } = planned
          void specialty
          return {
            ...a,
            hospitalId: row.id,
            createdBy: a.source === 'staff' ? (desk?.id ?? null) : null,
            ...(statusChangedAt ? { statusChangedAt } : { statusChangedAt: a.createdAt }),
            updatedAt: statusChangedAt ?? a.createdAt,
          }
        }),
      )
      .returning({
        id: appointments.id,
        patientId: appointments.patientId,
        doctorId: appointments.doctorId,
        startsAt: appointments.startsAt,
        serviceType: appointments.serviceType,
        status: appointments.status,
      })
    const hospital: HospitalContext = {
      name: row.name,
      timeZone: row.timeZone,
      workingHours: hours,
      reminderOffsets: row.reminderOffsets,
    }
    for (const a of inserted) {
      if (a.status !== 'scheduled' && a.status !== 'confirmed') continue
      if (a.startsAt.getTime() <= now.getTime()) continue
      const doctorName = own.find((d) => d.id === a.doctorId)?.name ?? null
      await scheduleReminders(tx, {
        hospitalId: row.id,
        appointment: { ...a, doctorName },
        hospital,
        now,
      })
    }
    changed = true
  }
  await tx.execute(sql`set local role none`)
  return changed
}
