import { eq } from 'drizzle-orm'
import type { z } from 'zod'
import type { trialSignUpInput } from '../../../shared/schemas/auth'
import type { Auth } from '../../auth/auth'
import type { AppDb } from '../../db/client'
import { user } from '../../db/schema/auth'
import { hospitals } from '../../db/schema/hospitals'
import { withPlatform } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { splitName } from '../../../shared/schemas/patients'

export const TRIAL_DAYS = 14
/** Starter plan limits apply during the trial. */
export const STARTER_LIMITS = { maxUsers: 5, maxPatients: 500 }

/**
 * A new clinic starts a 14-day trial: a hospital in 'trial' status and its first admin.
 * Returns better-auth's response headers (the session cookie) for the caller to forward.
 */
export async function startTrial(
  db: AppDb,
  auth: Auth,
  input: z.output<typeof trialSignUpInput>,
  /** The request's headers: better-auth resolves its (per-host) base URL from them. */
  requestHeaders: Headers,
): Promise<{ headers: Headers; userId: string; hospitalId: string }> {
  const [existing] = await withPlatform(db, (tx) =>
    tx.select({ id: user.id }).from(user).where(eq(user.email, input.email)),
  )
  if (existing) {
    throw new AppError(
      'CONFLICT',
      'An account with this email already exists. Please sign in instead.',
      [{ path: 'email', message: 'An account with this email already exists' }],
    )
  }
  const [hospital] = await withPlatform(db, (tx) =>
    tx
      .insert(hospitals)
      .values({
        name: input.hospitalName,
        email: input.email,
        phone: input.phone,
        subscriptionStatus: 'trial',
        plan: 'starter',
        trialEndsAt: new Date(Date.now() + TRIAL_DAYS * 24 * 3600 * 1000),
        ...STARTER_LIMITS,
      })
      .returning({ id: hospitals.id }),
  )
  if (!hospital) throw new AppError('INTERNAL', 'Could not create the hospital')
  try {
    const result = await auth.api.signUpEmail({
      body: { name: input.name, email: input.email, password: input.password },
      headers: requestHeaders,
      returnHeaders: true,
    })
    const userId = result.response.user.id
    const { firstName, lastName } = splitName(input.name)
    await withPlatform(db, (tx) =>
      tx
        .update(user)
        .set({ hospitalId: hospital.id, role: 'admin', firstName, lastName, phone: input.phone })
        .where(eq(user.id, userId)),
    )
    return { headers: result.headers, userId, hospitalId: hospital.id }
  } catch (error) {
    await withPlatform(db, (tx) => tx.delete(hospitals).where(eq(hospitals.id, hospital.id)))
    throw error
  }
}
