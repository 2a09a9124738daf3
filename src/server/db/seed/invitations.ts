import { createHash, randomBytes } from 'node:crypto'
import { eq, inArray, sql } from 'drizzle-orm'
import type { Tx } from '../client'
import { user } from '../schema/auth'
import { hospitals } from '../schema/hospitals'
import { invitations } from '../schema/team'

/** Pending invitations per demo hospital (issue 27), so Admin's team screen looks alive. */
const demoInvitations: Record<string, { name: string; email: string; role: string }[]> = {
  sanjeevani: [
    { name: 'Dr. Kavita Deshmukh', email: 'kavita.deshmukh@sanjeevani.demo', role: 'doctor' },
    { name: 'Rohan Jadhav', email: 'rohan.jadhav@sanjeevani.demo', role: 'receptionist' },
  ],
  smiledental: [
    { name: 'Dr. Arjun Hegde', email: 'arjun.hegde@smiledental.demo', role: 'doctor' },
    { name: 'Lakshmi Narayan', email: 'lakshmi.narayan@smiledental.demo', role: 'nurse' },
  ],
}

/**
 * Adds the demo's pending invitations where a demo hospital has none. Their links were never
 * emailed (random secrets, only hashes stored): an admin resends one to get a working link.
 * Runs in the seed's transaction; leaves the role as it found it (the connecting role).
 */
export async function seedDemoInvitations(
  tx: Tx,
  demo: readonly { key: string; email: string }[],
  now: Date,
): Promise<boolean> {
  await tx.execute(sql`select set_config('role', 'none', true)`)
  const rows = await tx
    .select({ id: hospitals.id, email: hospitals.email })
    .from(hospitals)
    .where(
      inArray(
        hospitals.email,
        demo.map((h) => h.email),
      ),
    )
  let changed = false
  for (const h of demo) {
    const row = rows.find((r) => r.email === h.email)
    const wanted = demoInvitations[h.key]
    if (!row || !wanted) continue
    const [admin] = await tx
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, `admin@${h.key}.demo`))
    await tx.execute(
      sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${row.id}, true)`,
    )
    const [any] = await tx.select({ id: invitations.id }).from(invitations).limit(1)
    if (!any) {
      await tx.insert(invitations).values(
        wanted.map((w, i) => ({
          hospitalId: row.id,
          email: w.email,
          name: w.name,
          role: w.role,
          tokenHash: createHash('sha256').update(randomBytes(32)).digest('hex'),
          invitedByUserId: admin?.id ?? null,
          createdAt: new Date(now.getTime() - (i + 1) * 86_400_000),
          expiresAt: new Date(now.getTime() + (6 - i) * 86_400_000),
        })),
      )
      changed = true
    }
    await tx.execute(sql`select set_config('role', 'none', true)`)
  }
  return changed
}
