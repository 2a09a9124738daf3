/** The support-access toasts (issue 27), without zod so the shell's banner loads light. */
export const supportToasts = {
  granted: 'Support access granted',
  grantFailed: 'Failed to grant support access',
  revoked: 'Support access revoked',
  revokeFailed: 'Failed to revoke support access',
  entered: 'You are now inside the hospital',
  enterFailed: 'Failed to enter the hospital',
  exited: 'You left the hospital',
} as const
