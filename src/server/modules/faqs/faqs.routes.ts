import type { FastifyInstance } from 'fastify'
import { noBody, uuidParam } from '../../../shared/schemas/common'
import {
  createFaqInput,
  faqListQuery,
  reorderFaqsInput,
  updateFaqInput,
} from '../../../shared/schemas/faqs'
import { actingMember, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { faqPublicPageRoute } from './faq-public-page'
import {
  addSuggestedFaqs,
  createFaq,
  deleteFaq,
  listFaqs,
  reorderFaqs,
  updateFaq,
} from './faqs.service'

/**
 * FAQ Management (issue 28): every member reads the hospital's FAQs (faqs:read); admins and
 * the front desk add, edit, reorder and delete them (faqs:write). The public page
 * /h/:slug/faq (no sign-in) shows the public ones.
 */
export function faqsRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  const read = { config: requirePermission('faqs:read') }
  const write = { config: requirePermission('faqs:write') }

  app.get('/api/faqs', read, async (req) => {
    const query = parse(faqListQuery, req.query, 'query')
    return listFaqs({ db, ...actingMember(req), query })
  })

  app.post('/api/faqs', write, async (req, reply) => {
    const values = parse(createFaqInput, req.body)
    return reply.code(201).send(await createFaq({ db, ...actingMember(req), values }))
  })

  // Registered before /api/faqs/:id; find-my-way prefers the static segment anyway.
  app.put('/api/faqs/order', write, async (req) => {
    const input = parse(reorderFaqsInput, req.body)
    return reorderFaqs({ db, ...actingMember(req), input })
  })

  app.post('/api/faqs/suggested', write, async (req, reply) => {
    parse(noBody, req.body)
    const result = await addSuggestedFaqs({ db, ...actingMember(req) })
    return reply.code(result.added ? 201 : 200).send(result)
  })

  app.put('/api/faqs/:id', write, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    const values = parse(updateFaqInput, req.body)
    return updateFaq({ db, ...actingMember(req), id, values })
  })

  app.delete('/api/faqs/:id', write, async (req, reply) => {
    const { id } = parse(uuidParam, req.params, 'id')
    await deleteFaq({ db, ...actingMember(req), id })
    return reply.code(204).send()
  })

  faqPublicPageRoute(app, { db })
}
