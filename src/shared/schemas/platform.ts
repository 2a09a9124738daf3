import { z } from 'zod'
import { planIds } from '../plans'
import { normalizePhone } from '../phone'
import { roles } from '../roles'
import { isoDate, optionalText } from './common'

/*
 * The Super Admin Dashboard (issue 27; spec sections 2, 3, 5, 7, 8 and 9): platform stats,
 * hospitals, users, onboarding tasks and the platform audit trail. Every route is
 * /api/admin/* and super admins only. The Add Hospital and Edit dialogs use these schemas too.
 */

export const hospitalTypes = ['general', 'specialty', 'clinic', 'diagnostic_center'] as const
export type HospitalType = (typeof hospitalTypes)[number]
export const hospitalTypeLabels: Record<HospitalType, string> = {
  general: 'General',
  specialty: 'Specialty',
  clinic: 'Clinic',
  diagnostic_center: 'Diagnostic Center',
}

export const subscriptionStatuses = ['trial', 'active', 'past_due', 'cancelled'] as const
export type SubscriptionStatus = (typeof subscriptionStatuses)[number]
export const subscriptionStatusLabels: Record<SubscriptionStatus, string> = {
  trial: 'Trial',
  active: 'Active',
  past_due: 'Past due',
  cancelled: 'Cancelled',
}

/**
 * trial → active → past_due → cancelled, and back to active on payment (issue 27). Staying
 * put is allowed (the Edit dialog sends the status it shows); anything else is a 409.
 */
export const allowedTransitions: Record<SubscriptionStatus, readonly SubscriptionStatus[]> = {
  trial: ['active'],
  active: ['past_due'],
  past_due: ['cancelled', 'active'],
  cancelled: ['active'],
}

export function canMoveTo(from: SubscriptionStatus, to: SubscriptionStatus): boolean {
  return from === to || allowedTransitions[from].includes(to)
}

/** Spec section 9, "Hospital defaults". */
export const HOSPITAL_DEFAULTS = {
  maxUsers: 5,
  pricePerUser: 240000,
  currency: 'INR',
  hospitalType: 'general',
} as const

/** Spec section 5, "Hospital form". */
export const hospitalMessages = {
  name: 'Hospital name is required',
  email: 'Valid email required',
  maxUsers: 'At least 1 user required',
  pricePerUser: 'Price must be positive',
} as const

/** Spec section 8 toasts of this screen. */
export const platformToasts = {
  hospitalCreated: 'Hospital created successfully',
  hospitalFailed: 'Failed to create hospital',
  hospitalUpdated: 'Hospital updated successfully',
  hospitalUpdateFailed: 'Failed to update hospital',
  userUpdated: 'User updated successfully',
  userFailed: 'Failed to update user',
  taskCompleted: 'Task marked as completed',
} as const

export const MAX_USERS_LIMIT = 10_000
/** ₹1,00,00,000 per user per month, in paise: far above any real price, far below int overflow. */
export const MAX_PRICE_PER_USER = 1_000_000_000

const whole = (message: string) => z.number({ message }).int({ message: 'Must be a whole number' })

const maxUsers = whole(hospitalMessages.maxUsers)
  .min(1, { message: hospitalMessages.maxUsers })
  .max(MAX_USERS_LIMIT, { message: `At most ${MAX_USERS_LIMIT} users` })
const pricePerUser = whole(hospitalMessages.pricePerUser)
  .min(0, { message: hospitalMessages.pricePerUser })
  .max(MAX_PRICE_PER_USER, { message: 'Price is too high' })
const optionalCount = (label: string, max: number) =>
  whole(`${label} must be a number`)
    .min(0, { message: `${label} cannot be negative` })
    .max(max, { message: `${label} must be at most ${max}` })
    .nullish()
    .transform((v) => v ?? null)

const hospitalEmail = z
  .string({ message: hospitalMessages.email })
  .trim()
  .max(254, { message: hospitalMessages.email })
  .pipe(z.email({ message: hospitalMessages.email }))
  .transform((v) => v.toLowerCase())

const optionalPhone = z
  .string({ message: 'Enter a valid phone number' })
  .trim()
  .max(32, { message: 'Enter a valid phone number, e.g. 020 2550 1234' })
  .transform((value, ctx) => {
    if (value === '') return null
    const e164 = normalizePhone(value)
    if (!e164) {
      ctx.addIssue({ code: 'custom', message: 'Enter a valid phone number, e.g. 020 2550 1234' })
      return z.NEVER
    }
    return e164
  })
  .nullish()
  .transform((v) => v ?? null)

const optionalAdminEmail = z
  .string({ message: 'Enter a valid email address' })
  .trim()
  .max(254, { message: 'Enter a valid email address' })
  .transform((v) => (v === '' ? null : v.toLowerCase()))
  .pipe(z.email({ message: 'Enter a valid email address' }).nullable())
  .nullish()
  .transform((v) => v ?? null)

/** POST /api/admin/hospitals (spec section 3, "Hospital (create)", with its defaults). */
export const createHospitalInput = z.strictObject({
  name: z
    .string({ message: hospitalMessages.name })
    .trim()
    .min(1, { message: hospitalMessages.name })
    .max(200, { message: 'Hospital name must be at most 200 characters' }),
  email: hospitalEmail,
  phone: optionalPhone,
  address: optionalText(500),
  hospitalType: z
    .enum(hospitalTypes, { message: 'Choose general, specialty, clinic or diagnostic center' })
    .default(HOSPITAL_DEFAULTS.hospitalType),
  licenseNumber: optionalText(100),
  accreditation: optionalText(100),
  website: optionalText(200),
  establishedYear: whole('Established year must be a year')
    .min(1800, { message: 'Established year must be 1800 or later' })
    .max(2100, { message: 'Established year must be 2100 or earlier' })
    .nullish()
    .transform((v) => v ?? null),
  bedCapacity: optionalCount('Bed capacity', 100_000),
  staffCount: optionalCount('Staff count', 1_000_000),
  maxUsers: maxUsers.default(HOSPITAL_DEFAULTS.maxUsers),
  pricePerUser: pricePerUser.default(HOSPITAL_DEFAULTS.pricePerUser),
  currency: z
    .literal('INR', { message: 'Only INR is supported' })
    .default(HOSPITAL_DEFAULTS.currency),
  plan: z.enum(planIds, { message: 'Choose a plan' }).default('starter'),
  /** The first admin, invited by email (defaults to the hospital's email). */
  adminEmail: optionalAdminEmail,
  /** The first admin's name, for the invitation (defaults to 'Hospital Admin'). */
  adminName: optionalText(100),
})
export type CreateHospitalInput = z.input<typeof createHospitalInput>

/** PATCH /api/admin/hospitals/:id: the Edit dialog's fields; at least one. */
export const updateHospitalInput = z
  .strictObject({
    plan: z.enum(planIds, { message: 'Choose a plan' }).optional(),
    maxUsers: maxUsers.optional(),
    pricePerUser: pricePerUser.optional(),
    subscriptionStatus: z
      .enum(subscriptionStatuses, { message: 'Choose trial, active, past_due or cancelled' })
      .optional(),
    trialEndsAt: isoDate.nullable().optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: 'Change at least one field',
  })
export type UpdateHospitalInput = z.input<typeof updateHospitalInput>

export const hospitalListStatuses = ['all', ...subscriptionStatuses] as const

export const listHospitalsQuery = z.strictObject({
  q: z.string().trim().max(100, { message: 'Search is at most 100 characters' }).optional(),
  status: z
    .enum(hospitalListStatuses, { message: 'Choose all, trial, active, cancelled or past_due' })
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
})

export const hospitalCard = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  hospitalType: z.enum(hospitalTypes),
  subscriptionStatus: z.enum(subscriptionStatuses),
  plan: z.enum(planIds),
  currentUsers: z.number(),
  maxUsers: z.number(),
  pricePerUser: z.number(),
  currency: z.string(),
  /** Price per user × current users, per month, in paise. */
  monthlyRevenue: z.number(),
  trialEndsAt: z.string().nullable(),
  createdAt: z.string(),
  /** When the hospital's live support access grant ends; null without one (decision 029). */
  supportAccessUntil: z.string().nullable(),
})
export type HospitalCard = z.infer<typeof hospitalCard>

export interface HospitalList {
  items: HospitalCard[]
  total: number
}

/** What POST /api/admin/hospitals answers: the hospital and how its admin's invitation went. */
export interface CreatedHospital extends HospitalDetail {
  invitation: { email: string; emailStatus: string } | null
}

export interface HospitalDetail extends HospitalCard {
  address: string | null
  licenseNumber: string | null
  accreditation: string | null
  website: string | null
  establishedYear: number | null
  bedCapacity: number | null
  staffCount: number | null
  adminEmail: string | null
  tasksCompleted: number
  tasksTotal: number
}

/** GET /api/admin/platform-stats. */
export interface PlatformStats {
  totalHospitals: number
  activeUsers: number
  /** Paise, per month: price per user × current users over active hospitals. */
  monthlyRevenue: number
  pendingTasks: number
}

/** GET /api/admin/stats: the super admin's /admin cards (spec section 3, "Admin stats"). */
export interface AdminStats {
  totalUsers: number
  /** Active and not suspended. */
  activeUsers: number
  /** Accounts created today (Asia/Kolkata). */
  newUsersToday: number
  /** Paise, per month: as the platform stats' monthly revenue. */
  totalRevenue: number
}

/** Spec section 8: the /admin Suspend / Activate toasts. */
export const adminToasts = {
  statusUpdated: 'User status updated successfully',
  statusFailed: 'Failed to update user status',
} as const

// Users

export const listUsersQuery = z.strictObject({
  q: z.string().trim().max(100, { message: 'Search is at most 100 characters' }).optional(),
  hospitalId: z.uuid({ message: 'Must be a valid id' }).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
})

export const userIdParam = z.strictObject({
  id: z.string().trim().min(1, { message: 'Must be a valid id' }).max(100),
})

/** PATCH /api/admin/users/:id: role and active state (super-admin screen), or status (/admin). */
export const updateUserInput = z
  .strictObject({
    role: z
      .enum(roles, {
        message: 'Choose a role: super_admin, admin, doctor, nurse, receptionist or viewer',
      })
      .optional(),
    isActive: z.boolean({ message: 'isActive must be true or false' }).optional(),
    status: z.enum(['active', 'suspended'], { message: 'Choose active or suspended' }).optional(),
  })
  .refine((v) => v.role !== undefined || v.isActive !== undefined || v.status !== undefined, {
    message: 'Change the role, the active state or the status',
  })
export type UpdateUserInput = z.input<typeof updateUserInput>

export interface PlatformUser {
  id: string
  name: string
  email: string
  role: (typeof roles)[number]
  isActive: boolean
  status: 'active' | 'suspended'
  isSuperAdmin: boolean
  hospitalId: string | null
  hospitalName: string | null
  /** The hospital's plan; null for platform accounts (shown as Free). */
  plan: string | null
  createdAt: string
}

export interface PlatformUserList {
  items: PlatformUser[]
  total: number
}

// Onboarding tasks

export const onboardingKinds = [
  'connect_meta',
  'setup_messaging',
  'import_patients',
  'add_team',
  'create_services',
  'first_appointment',
] as const
export type OnboardingKind = (typeof onboardingKinds)[number]
export const taskPriorities = ['high', 'medium', 'low'] as const
export type TaskPriority = (typeof taskPriorities)[number]

export const listTasksQuery = z.strictObject({
  hospitalId: z.uuid({ message: 'Must be a valid id' }).optional(),
  status: z
    .enum(['all', 'pending', 'completed'], { message: 'Choose all, pending or completed' })
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
})

export interface OnboardingTask {
  id: string
  hospitalId: string
  hospitalName: string
  kind: OnboardingKind
  taskName: string
  description: string
  priority: TaskPriority
  isCompleted: boolean
  completedAt: string | null
  /** 'auto': the hospital did it; 'manual': a super admin marked it complete. */
  completedHow: 'auto' | 'manual' | null
}

export interface OnboardingTaskList {
  items: OnboardingTask[]
  total: number
}

// Activities (the platform audit trail)

export const platformActions = [
  'hospital.created',
  'hospital.updated',
  'hospital.status_changed',
  'user.updated',
  'onboarding.completed',
  // Settings → Data: a hospital admin's Delete All Data (issue 27).
  'hospital.data_erased',
  'support.entered',
  'support.exited',
  // Issue 28: a lead-generation request moved by the platform.
  'lead_generation.status_changed',
] as const
export type PlatformAction = (typeof platformActions)[number]
export const platformActionLabels: Record<PlatformAction, string> = {
  'hospital.created': 'Hospital created',
  'hospital.updated': 'Hospital updated',
  'hospital.status_changed': 'Subscription status changed',
  'user.updated': 'User updated',
  'onboarding.completed': 'Onboarding task completed',
  'hospital.data_erased': 'Hospital data erased',
  'support.entered': 'Support entered a hospital',
  'support.exited': 'Support left a hospital',
  'lead_generation.status_changed': 'Lead-generation request updated',
}

export const ACTIVITIES_PAGE_SIZE = 20

export const listActivitiesQuery = z.strictObject({
  hospitalId: z.uuid({ message: 'Must be a valid id' }).optional(),
  action: z.enum(platformActions, { message: 'Choose a known action' }).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
})

export interface PlatformActivity {
  id: string
  action: string
  description: string
  createdAt: string
  hospitalId: string | null
  hospitalName: string | null
  actorName: string | null
}

export interface PlatformActivityList {
  items: PlatformActivity[]
  total: number
}
