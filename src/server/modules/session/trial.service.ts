import { eq } from 'drizzle-orm'
import type { z } from 'zod'
import type { trialSignUpInput } from '../../../shared/schemas/auth'
import { splitName } from '../../../shared/names'
import type { Auth } from '../../auth/auth'
import { insertCredentialUser } from '../../auth/credential-user'
import { existingAccountEmail } from '../../auth/verification-email'
import type { AppDb } from '../../db/client'
import { user } from '../../db/schema/auth'
import { hospitals } from '../../db/schema/hospitals'
import { withPlatform } from '../../db/tenant'
import { assertDeliversLinks, type Mailer } from '../../integrations/email/mailer'
import { createPatientNumberCounter } from '../patients/patient-numbers'
import { recordSecurityEvent } from '../security/security-log'
import { isUniqueViolation } from '../../db/sql-error'

export const TRIAL_DAYS = 14
/** Starter plan limits apply during the trial. */
export const STARTER_LIMITS = { maxUsers: 5, maxPatients: 500 }

export interface StartTrialOptions {
  db: AppDb
  auth: Auth
  mailer: Mailer
  input: z.output<typeof trialSignUpInput>
  /**
   * Asks better-auth to email the activation link (send-verification-email through its
   * handler, so the link is built on our origin: BASE_URL, or the request's own).
   */
  requestVerificationEmail: (email: string) => Promise<void>
  /** Where the app is reached, for the sign-in link. */
  publicUrl: string
  ip: string
}

/**
 * A new clinic asks for a 14-day trial: a hospital in 'trial' status and its first admin,
 * whose email is unverified until the emailed link is opened (better-auth refuses to sign
 * in an unverified account). An address that already has an account gets an email saying
 * so instead; the caller answers both alike, after the same work (one password hash, one
 * email), so the form does not reveal which addresses have accounts.
 */
export async function startTrial(opts: StartTrialOptions): Promise<void> {
  const { db, auth, input } = opts
  // Production without a mail server: the activation link would reach no one (409, before
  // anything is created, for every address alike).
  assertDeliversLinks(opts.mailer)
  const ctx = await auth.$context
  const passwordHash = await ctx.password.hash(input.password)
  const created = await createTrialAccount(db, input, passwordHash)
  await recordSecurityEvent(db, {
    event: 'trial.requested',
    email: input.email,
    ip: opts.ip,
    details: { existingAccount: created === 'exists' },
  })
  if (created === 'exists') {
    const [existing] = await withPlatform(db, (tx) =>
      tx.select({ verified: user.emailVerified }).from(user).where(eq(user.email, input.email)),
    )
    if (existing && !existing.verified) {
      await sendVerification(opts)
      return
    }
    await opts.mailer.send(existingAccountEmail(input.email, `${opts.publicUrl}/login`))
    return
  }
  await sendVerification(opts)
}

async function sendVerification(opts: StartTrialOptions): Promise<void> {
  await opts.requestVerificationEmail(opts.input.email)
}

/** The hospital, its admin and the password, in one transaction; 'exists' when the email is taken. */
async function createTrialAccount(
  db: AppDb,
  input: z.output<typeof trialSignUpInput>,
  passwordHash: string,
): Promise<'created' | 'exists'> {
  const { firstName, lastName } = splitName(input.name)
  try {
    const created = await withPlatform(db, async (tx) => {
      const [taken] = await tx.select({ id: user.id }).from(user).where(eq(user.email, input.email))
      if (taken) return 'exists' as const
      const [hospital] = await tx
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
        .returning({ id: hospitals.id })
      if (!hospital) throw new Error('trial: hospital not created')
      const userId = await insertCredentialUser(
        tx,
        {
          email: input.email,
          firstName,
          lastName,
          phone: input.phone,
          role: 'admin',
          hospitalId: hospital.id,
          emailVerified: false,
        },
        passwordHash,
      )
      // A title ('Dr. Meera Kulkarni') is not a first name, but it stays in the full name.
      if (input.name !== `${firstName} ${lastName}`.trim())
        await tx.update(user).set({ name: input.name }).where(eq(user.id, userId))
      return { hospitalId: hospital.id }
    })
    if (created === 'exists') return created
    // Its own (tenant) transaction; should it never run, the first patient starts a 'PT' counter.
    await createPatientNumberCounter({
      db,
      hospitalId: created.hospitalId,
      hospitalName: input.hospitalName,
    })
    return 'created'
  } catch (error) {
    // Two sign-ups with one address at the same moment: the second finds it taken.
    if (isUniqueViolation(error)) return 'exists'
    throw error
  }
}
