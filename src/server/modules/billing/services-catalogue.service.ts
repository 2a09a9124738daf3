import { asc, eq } from 'drizzle-orm'
import type { z } from 'zod'
import type {
  CatalogueService,
  createServiceInput,
  updateServiceInput,
} from '../../../shared/schemas/billing'
import { services } from '../../db/schema/appointments'
import { withTenant } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { isUniqueViolation } from '../../db/sql-error'
import type { BillingOptions } from './invoices.service'

type ServiceRow = typeof services.$inferSelect

const nameTaken = () =>
  new AppError('CONFLICT', 'A service with this name exists already', [
    { path: 'name', message: 'A service with this name exists already' },
  ])

function toService(r: ServiceRow): CatalogueService {
  return {
    id: r.id,
    name: r.name,
    code: r.code,
    defaultPrice: r.defaultPrice,
    gstRate: r.gstRate,
    durationMinutes: r.durationMinutes,
    bookable: r.bookable,
    active: r.active,
  }
}

/** The hospital's catalogue by name (active and inactive: the client filters). */
export async function listServices(opts: BillingOptions): Promise<CatalogueService[]> {
  const rows = await withTenant(opts.db, opts, (tx) =>
    tx.select().from(services).orderBy(asc(services.name), asc(services.id)),
  )
  return rows.map(toService)
}

export async function createService(
  opts: BillingOptions & { input: z.output<typeof createServiceInput> },
): Promise<CatalogueService> {
  try {
    return await withTenant(opts.db, opts, async (tx) => {
      const [row] = await tx
        .insert(services)
        .values({ hospitalId: opts.hospitalId, ...opts.input })
        .returning()
      if (!row) throw new AppError('INTERNAL', 'Service was not saved')
      await recordAudit(tx, {
        hospitalId: opts.hospitalId,
        actorUserId: opts.userId,
        impersonatorUserId: opts.impersonatorUserId,
        action: 'service.created',
        entityType: 'service',
        entityId: row.id,
        summary: `Added service ${row.name}`,
      })
      return toService(row)
    })
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken()
    throw error
  }
}

export async function updateService(
  opts: BillingOptions & { id: string; input: z.output<typeof updateServiceInput> },
): Promise<CatalogueService> {
  try {
    return await withTenant(opts.db, opts, async (tx) => {
      const [row] = await tx
        .update(services)
        .set({ ...opts.input, updatedAt: new Date() })
        .where(eq(services.id, opts.id))
        .returning()
      if (!row) throw notFound('Service')
      await recordAudit(tx, {
        hospitalId: opts.hospitalId,
        actorUserId: opts.userId,
        impersonatorUserId: opts.impersonatorUserId,
        action: 'service.updated',
        entityType: 'service',
        entityId: row.id,
        summary: `Changed service ${row.name}: ${Object.keys(opts.input).join(', ')}`,
      })
      return toService(row)
    })
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken()
    throw error
  }
}
