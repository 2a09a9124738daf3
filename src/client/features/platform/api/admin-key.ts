/** Every query of the Super Admin Dashboard starts with this key: a change reloads them all. */
export const adminKey = ['admin'] as const
