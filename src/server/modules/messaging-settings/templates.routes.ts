import type { FastifyInstance } from 'fastify'
import { noBody, uuidParam } from '../../../shared/schemas/common'
import {
  createTemplateInput,
  templateListQuery,
  updateTemplateInput,
} from '../../../shared/schemas/messaging-templates'
import { actingMember, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import type { ProviderUrls } from '../../integrations/messaging/registry'
import { resyncTemplates } from './resync.service'
import { createTemplate, deleteTemplate, listTemplates, updateTemplate } from './templates.service'

/**
 * Message templates: every member who may message leads reads them (the message dialog);
 * admins (hospital:manage) add, edit, delete and resync them.
 */
export function templatesRoutes(
  app: FastifyInstance,
  deps: { db: AppDb; urls: ProviderUrls },
): void {
  const { db, urls } = deps
  const read = { config: requirePermission('leads:read') }
  const manage = { config: requirePermission('hospital:manage') }
  const credentials = { config: requirePermission('integrations:manage') }

  app.get('/api/message-templates', read, async (req) => {
    const { channel } = parse(templateListQuery, req.query)
    return { templates: await listTemplates({ db, ...actingMember(req), channel }) }
  })

  app.post('/api/message-templates', manage, async (req, reply) => {
    const values = parse(createTemplateInput, req.body)
    return reply.code(201).send(await createTemplate({ db, ...actingMember(req), values }))
  })

  app.patch('/api/message-templates/:id', manage, async (req) => {
    const { id } = parse(uuidParam, req.params)
    const values = parse(updateTemplateInput, req.body)
    return updateTemplate({ db, ...actingMember(req), id, values })
  })

  app.delete('/api/message-templates/:id', manage, async (req, reply) => {
    const { id } = parse(uuidParam, req.params)
    await deleteTemplate({ db, ...actingMember(req), id })
    return reply.code(204).send()
  })

  app.post('/api/message-templates/resync', credentials, async (req) => {
    parse(noBody, req.body)
    return resyncTemplates({ db, urls, ...actingMember(req) })
  })
}
