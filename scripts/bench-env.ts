// Kept for scripts/audit-security.ts; the bench's helpers live in scripts/bench/.
export { freePort } from './bench/server'
