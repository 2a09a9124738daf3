import type { Tx } from '../db/client'
import { account, user } from '../db/schema/auth'

export interface NewStaffUser {
  email: string
  firstName: string
  lastName: string
  role: string
  hospitalId: string | null
  emailVerified: boolean
  isSuperAdmin?: boolean
  phone?: string | null
}

/**
 * A user who signs in with email and password: the users row and better-auth's credential
 * account with the (already hashed) password, in the caller's transaction. Accounts are made
 * only here (trial sign-up, demo seed, later the admin screens): better-auth's sign-up is off.
 */
export async function insertCredentialUser(
  tx: Tx,
  fields: NewStaffUser,
  passwordHash: string,
): Promise<string> {
  const id = crypto.randomUUID()
  await tx.insert(user).values({
    id,
    name: `${fields.firstName} ${fields.lastName}`.trim(),
    email: fields.email,
    emailVerified: fields.emailVerified,
    firstName: fields.firstName,
    lastName: fields.lastName,
    username: fields.email.split('@')[0] ?? null,
    phone: fields.phone ?? null,
    role: fields.role,
    hospitalId: fields.hospitalId,
    isSuperAdmin: fields.isSuperAdmin ?? false,
  })
  await tx.insert(account).values({
    id: crypto.randomUUID(),
    accountId: id,
    providerId: 'credential',
    userId: id,
    password: passwordHash,
  })
  return id
}
