import type { FastifyInstance } from 'fastify'
import { listMetaPagesQuery, metaPageParams } from '../../../shared/schemas/meta'
import { superAdmin } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { AppError } from '../../http/app-error'
import { parse } from '../../http/parse'
import { listPageClaims, releasePageClaim } from './meta-admin.service'

/** The super admin's view of Meta page claims, and releasing one (docs/decisions/021). */
export function metaAdminRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  app.get('/api/admin/meta-pages', { config: superAdmin }, async (req) => {
    const query = parse(listMetaPagesQuery, req.query, 'query')
    return listPageClaims({ db, ...query })
  })

  app.delete('/api/admin/meta-pages/:pageId', { config: superAdmin }, async (req) => {
    const { pageId } = parse(metaPageParams, req.params, 'pageId')
    const userId = req.actor?.userId
    if (!userId) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue')
    return releasePageClaim({ db, pageId, userId })
  })
}
