import type { staffRoles } from '../../../shared/roles'

/*
 * The demo hospitals' staff (issue 40 item 19): each hospital its own people (no name shared
 * between the two), the multispeciality hospital with a doctor per specialty, each doctor with
 * the OPD days and hours they see patients (inside the hospital's working hours, India time),
 * the services of their specialty, and a "joined" date in the past (varied, before any of
 * their activity). The schema has no specialty or per-doctor hours: the seed keeps them here
 * and the appointments follow them.
 */

export type Specialty =
  | 'general medicine'
  | 'orthopaedics'
  | 'gynaecology'
  | 'paediatrics'
  | 'dermatology'
  | 'dental'
  | 'orthodontics'

export interface DemoDoctorPlan {
  specialty: Specialty
  /** Weekdays (0 = Sunday) of the doctor's OPD. */
  days: readonly number[]
  /** 'HH:MM' from and to, in the hospital's zone. */
  hours: readonly [string, string]
  /** Service names (the hospital's catalogue) of the specialty. */
  services: readonly string[]
}

export interface DemoStaffMember {
  /** The log-in: `<role>@<key>.demo` for the one account per role, a name for the others. */
  local: string
  name: string
  role: (typeof staffRoles)[number]
  /** Days before the seed the account was created (the "Joined" date). */
  joinedDaysAgo: number
  doctor?: DemoDoctorPlan
}

const monSat = [1, 2, 3, 4, 5, 6] as const

export const demoStaff: Record<string, readonly DemoStaffMember[]> = {
  sanjeevani: [
    { local: 'admin', name: 'Anita Kulkarni', role: 'admin', joinedDaysAgo: 268 },
    {
      local: 'doctor',
      name: 'Dr. Rajesh Iyer',
      role: 'doctor',
      joinedDaysAgo: 265,
      doctor: {
        specialty: 'general medicine',
        days: monSat,
        hours: ['09:00', '17:00'],
        services: ['OPD consultation', 'Follow-up consultation'],
      },
    },
    { local: 'nurse', name: 'Sunita Pawar', role: 'nurse', joinedDaysAgo: 212 },
    { local: 'receptionist', name: 'Pooja Shetty', role: 'receptionist', joinedDaysAgo: 143 },
    { local: 'viewer', name: 'Vikas Rao', role: 'viewer', joinedDaysAgo: 61 },
    {
      local: 'sameer.deshpande',
      name: 'Dr. Sameer Deshpande',
      role: 'doctor',
      joinedDaysAgo: 240,
      doctor: {
        specialty: 'orthopaedics',
        days: [1, 3, 5],
        hours: ['10:00', '16:00'],
        services: ['Orthopaedic consultation', 'Physiotherapy session', 'Follow-up consultation'],
      },
    },
    {
      local: 'kavita.joshi',
      name: 'Dr. Kavita Joshi',
      role: 'doctor',
      joinedDaysAgo: 198,
      doctor: {
        specialty: 'gynaecology',
        days: monSat,
        hours: ['11:00', '16:00'],
        services: ['Gynaecology consultation', 'Follow-up consultation'],
      },
    },
    {
      local: 'farhan.shaikh',
      name: 'Dr. Farhan Shaikh',
      role: 'doctor',
      joinedDaysAgo: 176,
      doctor: {
        specialty: 'paediatrics',
        days: monSat,
        hours: ['16:00', '20:00'],
        services: ['Paediatric consultation', 'Follow-up consultation'],
      },
    },
    {
      local: 'neha.agarwal',
      name: 'Dr. Neha Agarwal',
      role: 'doctor',
      joinedDaysAgo: 97,
      doctor: {
        specialty: 'dermatology',
        days: [2, 4, 6],
        hours: ['10:00', '13:00'],
        services: ['Dermatology consultation', 'Follow-up consultation'],
      },
    },
    {
      local: 'aditya.gokhale',
      name: 'Dr. Aditya Gokhale',
      role: 'doctor',
      joinedDaysAgo: 154,
      doctor: {
        specialty: 'dental',
        days: [1, 2, 3, 4, 5],
        hours: ['09:30', '13:30'],
        services: ['Dental check-up', 'Follow-up consultation'],
      },
    },
  ],
  smiledental: [
    { local: 'admin', name: 'Lakshmi Hegde', role: 'admin', joinedDaysAgo: 262 },
    {
      local: 'doctor',
      name: 'Dr. Karthik Bhat',
      role: 'doctor',
      joinedDaysAgo: 262,
      doctor: {
        specialty: 'dental',
        days: monSat,
        hours: ['10:00', '19:00'],
        services: [
          'OPD consultation',
          'Follow-up consultation',
          'Dental cleaning (scaling)',
          'Tooth filling (composite)',
          'Root canal treatment',
          'Tooth extraction',
          'Teeth whitening (cosmetic)',
        ],
      },
    },
    { local: 'nurse', name: 'Shwetha Gowda', role: 'nurse', joinedDaysAgo: 230 },
    { local: 'receptionist', name: 'Sahana Kamath', role: 'receptionist', joinedDaysAgo: 121 },
    { local: 'viewer', name: 'Girish Nayak', role: 'viewer', joinedDaysAgo: 44 },
    {
      local: 'meera.iyengar',
      name: 'Dr. Meera Iyengar',
      role: 'doctor',
      joinedDaysAgo: 187,
      doctor: {
        specialty: 'orthodontics',
        days: [2, 4, 6],
        hours: ['11:00', '17:00'],
        services: ['Orthodontic consultation', 'Follow-up consultation'],
      },
    },
  ],
}

/** The doctor plans of a hospital by the doctor's email. */
export function doctorPlans(hospitalKey: string): Map<string, DemoDoctorPlan> {
  return new Map(
    (demoStaff[hospitalKey] ?? []).flatMap((s) =>
      s.doctor ? [[`${s.local}@${hospitalKey}.demo`, s.doctor] as const] : [],
    ),
  )
}
