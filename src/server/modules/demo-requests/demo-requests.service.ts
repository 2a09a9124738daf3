import { and, desc, eq, lt, or } from 'drizzle-orm'
import type { z } from 'zod'
import type {
  createDemoRequestInput,
  DemoRequest,
  DemoRequestReceipt,
} from '../../../shared/schemas/demo-requests'
import type { AppDb } from '../../db/client'
import { demoRequests } from '../../db/schema/demo-requests'
import { withPlatform } from '../../db/tenant'
import { AppError } from '../../http/app-error'

type DemoRequestRow = typeof demoRequests.$inferSelect

export function toDemoRequest(row: DemoRequestRow): DemoRequest {
  return { ...row, createdAt: row.createdAt.toISOString() }
}

/** Stores a visitor's demo request (a platform row: the visitor belongs to no hospital yet). */
export async function createDemoRequest(opts: {
  db: AppDb
  values: z.output<typeof createDemoRequestInput>
}): Promise<DemoRequestReceipt> {
  const [row] = await withPlatform(opts.db, (tx) =>
    tx.insert(demoRequests).values(opts.values).returning(),
  )
  if (!row) throw new AppError('INTERNAL', 'Demo request was not saved')
  const { id, name, mobile, preferredTime } = row
  return { id, name, mobile, preferredTime, createdAt: row.createdAt.toISOString() }
}

interface Cursor {
  createdAt: string
  id: string
}

function encodeCursor(row: DemoRequestRow): string {
  return Buffer.from(
    JSON.stringify({ createdAt: row.createdAt.toISOString(), id: row.id } satisfies Cursor),
  ).toString('base64url')
}

function decodeCursor(cursor: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<Cursor>
    if (
      typeof value.createdAt === 'string' &&
      !Number.isNaN(Date.parse(value.createdAt)) &&
      typeof value.id === 'string' &&
      /^[0-9a-f-]{36}$/i.test(value.id)
    ) {
      return { createdAt: value.createdAt, id: value.id }
    }
  } catch {
    // fall through
  }
  throw new AppError('VALIDATION', 'Invalid input: cursor is not valid', [
    { path: 'cursor', message: 'cursor is not valid' },
  ])
}

export const DEFAULT_PAGE_SIZE = 100

/** Every demo request, newest first, a page at a time (super admins only). */
export async function listDemoRequests(opts: {
  db: AppDb
  limit?: number | undefined
  cursor?: string | undefined
}): Promise<{ items: DemoRequest[]; nextCursor: string | null }> {
  const limit = opts.limit ?? DEFAULT_PAGE_SIZE
  const c = opts.cursor ? decodeCursor(opts.cursor) : null
  const after = c
    ? or(
        lt(demoRequests.createdAt, new Date(c.createdAt)),
        and(eq(demoRequests.createdAt, new Date(c.createdAt)), lt(demoRequests.id, c.id)),
      )
    : undefined
  const rows = await withPlatform(opts.db, (tx) =>
    tx
      .select()
      .from(demoRequests)
      .where(after)
      .orderBy(desc(demoRequests.createdAt), desc(demoRequests.id))
      .limit(limit + 1),
  )
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return {
    items: page.map(toDemoRequest),
    nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
  }
}
