import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { hospitalSettings } from '../../src/server/db/schema/settings'
import type { AppDb } from '../../src/server/db/client'
import { withTenant } from '../../src/server/db/tenant'
import { browserHeaders } from './login'
import { type DemoHospital, hospitalIdOf } from './test-app'

export interface PolicyValues {
  requireTwoFactor?: boolean
  sessionTimeout?: boolean
  sessionHours?: number
}

/**
 * Sets a hospital's security policy the way GET/PUT /api/settings stores it: its
 * hospital_settings row, written inside the hospital's tenant transaction.
 */
export async function setSecurityPolicy(
  db: AppDb,
  hospital: DemoHospital,
  values: PolicyValues,
): Promise<void> {
  const hospitalId = await hospitalIdOf(db, hospital)
  await withTenant(db, { hospitalId, userId: null }, (tx) =>
    tx
      .insert(hospitalSettings)
      .values({ hospitalId, ...values })
      .onConflictDoUpdate({ target: hospitalSettings.hospitalId, set: values }),
  )
}

/** A signed-in request as a same-origin browser sends it. */
export function call(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  cookie: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  const headers = browserHeaders(cookie)
  if (payload === undefined) delete headers['content-type']
  return app.inject({
    method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  })
}
