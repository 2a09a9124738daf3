import { eq } from 'drizzle-orm'
import type { AppDb } from '../../db/client'
import { hospitals } from '../../db/schema/hospitals'
import { withPlatform } from '../../db/tenant'
import { notFound } from '../../http/app-error'

/** What billing reads of its hospital (the hospitals columns; edited under Settings). */
export interface HospitalBilling {
  name: string
  address: string | null
  gstin: string | null
  stateCode: string | null
  upiId: string | null
  invoicePrefix: string
  timeZone: string
  currency: string
}

/**
 * The hospital's billing details. `hospitals` is a platform table (app_user cannot read it), so
 * this is its own short platform read before the tenant transaction, like patientLimit.
 */
export async function hospitalBilling(db: AppDb, hospitalId: string): Promise<HospitalBilling> {
  const [row] = await withPlatform(db, (tx) =>
    tx
      .select({
        name: hospitals.name,
        address: hospitals.address,
        gstin: hospitals.gstin,
        stateCode: hospitals.stateCode,
        upiId: hospitals.upiId,
        invoicePrefix: hospitals.invoicePrefix,
        timeZone: hospitals.timeZone,
        currency: hospitals.currency,
      })
      .from(hospitals)
      .where(eq(hospitals.id, hospitalId)),
  )
  if (!row) throw notFound('Hospital')
  return { ...row, invoicePrefix: row.invoicePrefix ?? 'INV' }
}
