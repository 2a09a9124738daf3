import { sql } from 'drizzle-orm'
import type { PlanId } from '../../../shared/plans'
import type {
  HospitalCard,
  HospitalDetail,
  HospitalType,
  SubscriptionStatus,
} from '../../../shared/schemas/platform'
import { hospitals } from '../../db/schema/hospitals'

/** Members who count against the plan and the bill: active and not suspended. */
export const currentUsersSql = sql<number>`(select count(*)::int from users u
  where u.hospital_id = hospitals.id and u.is_active and not u.banned)`

/** What a hospital card shows (spec section 3, "Hospital (read)"). */
export const cardColumns = {
  id: hospitals.id,
  name: hospitals.name,
  email: hospitals.email,
  phone: hospitals.phone,
  hospitalType: hospitals.hospitalType,
  subscriptionStatus: hospitals.subscriptionStatus,
  plan: hospitals.plan,
  maxUsers: hospitals.maxUsers,
  pricePerUser: hospitals.pricePerUser,
  currency: hospitals.currency,
  trialEndsAt: hospitals.trialEndsAt,
  createdAt: hospitals.createdAt,
  currentUsers: currentUsersSql,
  /** The end of the hospital's live support access grant, if any (decision 029). */
  supportAccessUntil: sql<string | null>`(select to_char(max(g.expires_at) at time zone 'UTC',
    'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') from support_access_grants g
    where g.hospital_id = hospitals.id and g.revoked_at is null and g.expires_at > now())`,
}

export const detailColumns = {
  ...cardColumns,
  address: hospitals.address,
  licenseNumber: hospitals.licenseNumber,
  accreditation: hospitals.accreditation,
  website: hospitals.website,
  establishedYear: hospitals.establishedYear,
  bedCapacity: hospitals.bedCapacity,
  staffCount: hospitals.staffCount,
  adminEmail: hospitals.adminEmail,
  tasksCompleted: sql<number>`(select count(*)::int from onboarding_tasks t
    where t.hospital_id = hospitals.id and t.completed_at is not null)`,
  tasksTotal: sql<number>`(select count(*)::int from onboarding_tasks t
    where t.hospital_id = hospitals.id)`,
}

interface CardRow {
  id: string
  name: string
  email: string
  phone: string | null
  hospitalType: string
  subscriptionStatus: string
  plan: string
  maxUsers: number
  pricePerUser: number
  currency: string
  trialEndsAt: Date | null
  createdAt: Date
  currentUsers: number
  supportAccessUntil: string | null
}

/** The trial end as the calendar date it was set to (stored as midnight UTC). */
function dateOnly(d: Date | null): string | null {
  return d ? d.toISOString().slice(0, 10) : null
}

export function toCard(r: CardRow): HospitalCard {
  const currentUsers = Number(r.currentUsers)
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    phone: r.phone,
    hospitalType: r.hospitalType as HospitalType,
    subscriptionStatus: r.subscriptionStatus as SubscriptionStatus,
    plan: r.plan as PlanId,
    currentUsers,
    maxUsers: r.maxUsers,
    pricePerUser: r.pricePerUser,
    currency: r.currency,
    monthlyRevenue: r.pricePerUser * currentUsers,
    trialEndsAt: dateOnly(r.trialEndsAt),
    createdAt: r.createdAt.toISOString(),
    supportAccessUntil: r.supportAccessUntil,
  }
}

type DetailRow = CardRow & Omit<HospitalDetail, keyof HospitalCard>

export function toDetail(r: DetailRow): HospitalDetail {
  return {
    ...toCard(r),
    address: r.address,
    licenseNumber: r.licenseNumber,
    accreditation: r.accreditation,
    website: r.website,
    establishedYear: r.establishedYear,
    bedCapacity: r.bedCapacity,
    staffCount: r.staffCount,
    adminEmail: r.adminEmail,
    tasksCompleted: Number(r.tasksCompleted),
    tasksTotal: Number(r.tasksTotal),
  }
}

/** A LIKE pattern that matches the text literally anywhere. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}
