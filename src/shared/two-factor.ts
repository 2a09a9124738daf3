/**
 * Platform accounts must use two-factor, and so must the members of a hospital that requires
 * it (Settings -> Security): without it they may only enrol (the server answers everything
 * else with 403 TWO_FACTOR_REQUIRED).
 */
export function mustEnrolTwoFactor(user: {
  isSuperAdmin: boolean
  twoFactorEnabled: boolean
  twoFactorRequired?: boolean | undefined
}) {
  return (user.isSuperAdmin || user.twoFactorRequired === true) && !user.twoFactorEnabled
}
