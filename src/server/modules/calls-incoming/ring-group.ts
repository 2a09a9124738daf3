import type { Tx } from '../../db/client'
import { staffPhones } from '../../db/schema/calls'

/**
 * Who an incoming call rings (issue 41): the hospital's ring group. Settings may name staff
 * (voice_settings.ring_group, in order, drizzle/0048); with none named, the receptionists with
 * a verified phone ring, else the admins with one. Only verified phones are dialled; the
 * pop-up goes to the same staff. When nobody has a verified phone at all (a sandbox hospital),
 * the receptionists (else the admins) still get the pop-up, and no phone is dialled.
 */

export interface StaffOfHospital {
  id: string
  name: string
  role: string
}

export interface RingMember {
  userId: string
  name: string
  role: string
  /** The verified phone that rings, or null (pop-up only). */
  phone: string | null
}

export interface ResolvedRing {
  members: RingMember[]
  /** The verified phones to dial, in order, each once. */
  phones: string[]
}

/** The verified phones of the hospital's staff by user id (RLS: this hospital's only). */
export async function verifiedPhones(tx: Tx): Promise<Map<string, string>> {
  const rows = await tx
    .select({
      userId: staffPhones.userId,
      phone: staffPhones.phone,
      verifiedAt: staffPhones.phoneVerifiedAt,
    })
    .from(staffPhones)
  return new Map(rows.filter((r) => r.verifiedAt !== null).map((r) => [r.userId, r.phone]))
}

/** The ring group from the active staff (listStaff), the configured ids and verified phones. */
export function resolveRingGroup(
  staff: readonly StaffOfHospital[],
  configured: readonly string[],
  phones: ReadonlyMap<string, string>,
): ResolvedRing {
  const byId = new Map(staff.map((s) => [s.id, s]))
  const member = (s: StaffOfHospital): RingMember => ({
    userId: s.id,
    name: s.name,
    role: s.role,
    phone: phones.get(s.id) ?? null,
  })
  let members: RingMember[]
  const named = [...new Set(configured)]
    .map((id) => byId.get(id))
    .filter((s): s is StaffOfHospital => s !== undefined)
  if (named.length) {
    members = named.map(member)
  } else {
    const ordered = [...staff].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    const ofRole = (role: string) => ordered.filter((s) => s.role === role).map(member)
    const withPhone = (list: RingMember[]) => list.filter((m) => m.phone !== null)
    const receptionists = ofRole('receptionist')
    const admins = ofRole('admin')
    members = withPhone(receptionists).length
      ? withPhone(receptionists)
      : withPhone(admins).length
        ? withPhone(admins)
        : receptionists.length
          ? receptionists
          : admins
  }
  const dial = [...new Set(members.flatMap((m) => (m.phone ? [m.phone] : [])))]
  return { members, phones: dial }
}
