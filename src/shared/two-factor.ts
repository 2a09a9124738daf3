/**
 * Platform accounts must use two-factor: a super admin without it may only enrol
 * (the server answers everything else with 403 TWO_FACTOR_REQUIRED).
 */
export function mustEnrolTwoFactor(user: { isSuperAdmin: boolean; twoFactorEnabled: boolean }) {
  return user.isSuperAdmin && !user.twoFactorEnabled
}
