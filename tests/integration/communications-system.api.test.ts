import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTenant } from '../../src/server/db/tenant'
import type { MappedMetaLead } from '../../src/server/integrations/meta/map-lead'
import { createCommunication } from '../../src/server/modules/leads/communications.service'
import { upsertMetaLead } from '../../src/server/modules/meta/meta-leads'
import { serverMetadataKeys } from '../../src/shared/schemas/leads'
import { expectError } from '../support/http'
import { call, e164, newLead, uniqueMobile } from '../support/leads'
import { login } from '../support/login'
import { graphId } from '../support/meta'
import { createTestApp, demoEmail, queryRows, type TestApp, userIdOf } from '../support/test-app'

// Issue 24 item 8: system notes, and the metadata keys the server relies on to deduplicate
// Meta leads, are written by the server only. A made-up metaLeadId in a note posted by staff
// used to make the real Meta lead with that id look like a duplicate, so it was never merged.

let t: TestApp
let admin: string
let receptionist: string

beforeAll(async () => {
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  receptionist = await login(t.app, demoEmail('receptionist'))
})
afterAll(async () => {
  await t?.close()
})

const post = (body: Record<string, unknown>, cookie = receptionist) =>
  call(t.app, cookie, 'POST', '/api/communications', {
    type: 'call',
    direction: 'outbound',
    content: 'Called about the enquiry',
    ...body,
  })

async function notesOf(leadId: string) {
  return queryRows<{ type: string; metadata: Record<string, unknown> }>(
    t.db,
    sql`select type, metadata from communications where lead_id = ${leadId} order by created_at, id`,
  )
}

/** One Meta lead-ads record, stored as Sync and the webhook's job both store it. */
function receiveMetaLead(hospitalId: string, lead: MappedMetaLead) {
  return withTenant(t.db, { hospitalId, userId: null }, (tx) =>
    upsertMetaLead(tx, hospitalId, lead),
  )
}

describe('POST /api/communications refuses what only the server writes', () => {
  it('a system note: 400 on type, for every role that may write, and nothing stored', async () => {
    const target = await newLead(t.app, admin)
    for (const cookie of [admin, receptionist]) {
      const res = await post({ leadId: target.id, type: 'system', content: 'Imported' }, cookie)
      const body = expectError(res, 400, 'VALIDATION')
      expect(body.issues).toEqual([
        { path: 'type', message: 'System notes are written by the server only' },
      ])
    }
    expect(await notesOf(target.id)).toEqual([])
  })

  it.each([
    ...serverMetadataKeys,
    'MetaLeadId',
    'meta_lead_id',
    'META-LEAD-ID',
    'leadgen_id',
    'form_id',
    'Source',
    'patient_number',
  ])('metadata key %s: 400 naming it, and nothing stored', async (key) => {
    const target = await newLead(t.app, admin)
    const res = await post({ leadId: target.id, metadata: { [key]: '123456789', note: 'ok' } })
    const body = expectError(res, 400, 'VALIDATION')
    expect(body.issues).toEqual([
      { path: `metadata.${key}`, message: 'This metadata key is written by the server only' },
    ])
    expect(await notesOf(target.id)).toEqual([])
  })

  it('still records a call with metadata of its own', async () => {
    const target = await newLead(t.app, admin)
    const res = await post({ leadId: target.id, metadata: { durationSec: 95, subject: 'Fees' } })
    expect(res.statusCode, res.body).toBe(201)
    expect(await notesOf(target.id)).toEqual([
      { type: 'call', metadata: { durationSec: 95, subject: 'Fees' } },
    ])
  })
})

describe('createCommunication (the service) refuses them too', () => {
  it('for any later caller, not only this route', async () => {
    const target = await newLead(t.app, admin)
    const who = {
      db: t.db,
      hospitalId: target.hospitalId,
      userId: await userIdOf(t.db, demoEmail('receptionist')),
      impersonatorUserId: null,
    }
    const values = {
      leadId: target.id,
      type: 'call' as const,
      direction: 'outbound' as const,
      content: 'Called',
      status: 'logged' as const,
      metadata: {},
    }
    await expect(
      createCommunication({ ...who, values: { ...values, type: 'system' as never } }),
    ).rejects.toMatchObject({ code: 'VALIDATION', issues: [{ path: 'type' }] })
    await expect(
      createCommunication({ ...who, values: { ...values, metadata: { Meta_Lead_Id: '1' } } }),
    ).rejects.toMatchObject({ code: 'VALIDATION', issues: [{ path: 'metadata.Meta_Lead_Id' }] })
    expect(await notesOf(target.id)).toEqual([])
  })
})

describe('a forged Meta lead id cannot hide the real Meta lead', () => {
  it('the refused note leaves the later Meta lead with that id to be merged into the lead', async () => {
    const phone = uniqueMobile(93_000)
    const target = await newLead(t.app, admin, { phone, name: 'Walk-in First', email: null })
    const metaLeadId = graphId('8')
    for (const body of [
      { type: 'system', metadata: { metaLeadId } },
      { type: 'call', metadata: { metaLeadId } },
      { type: 'sms', direction: 'inbound', metadata: { metaLeadId, source: 'meta-facebook' } },
    ]) {
      expectError(await post({ leadId: target.id, content: 'New enquiry', ...body }), 400)
    }
    expect(await notesOf(target.id)).toEqual([])

    const outcome = await receiveMetaLead(target.hospitalId, {
      name: 'Walk-in Again',
      phone: e164(phone),
      email: 'walkin.again@example.com',
      serviceInterest: 'Knee pain',
      campaign: 'Knee camp',
      source: 'meta-facebook',
      metaLeadId,
      metaFormId: '4440001',
    })
    expect(outcome).toBe('duplicate') // merged into the lead with that phone
    const notes = await notesOf(target.id)
    expect(notes).toHaveLength(1)
    expect(notes[0]).toMatchObject({ type: 'system', metadata: { metaLeadId } })
    const [stored] = await queryRows<{ meta_lead_id: string | null; email: string | null }>(
      t.db,
      sql`select meta_lead_id, email from leads where id = ${target.id}`,
    )
    expect(stored).toEqual({ meta_lead_id: metaLeadId, email: 'walkin.again@example.com' })
  })

  it('(why it matters) a note carrying that id, had one been stored, would have stopped the merge', async () => {
    const phone = uniqueMobile(93_000)
    const target = await newLead(t.app, admin, { phone, name: 'Walk-in Second', email: null })
    const metaLeadId = graphId('8')
    // What the API used to accept, written behind its back.
    await queryRows(
      t.db,
      sql`insert into communications (hospital_id, lead_id, type, direction, content, status, metadata)
          values (${target.hospitalId}, ${target.id}, 'system', 'inbound', 'Forged', 'logged',
                  ${JSON.stringify({ metaLeadId })}::jsonb)`,
    )
    await receiveMetaLead(target.hospitalId, {
      name: 'Walk-in Again',
      phone: e164(phone),
      email: 'walkin.second@example.com',
      serviceInterest: 'Knee pain',
      campaign: null,
      source: 'meta-facebook',
      metaLeadId,
      metaFormId: null,
    })
    const [stored] = await queryRows<{ meta_lead_id: string | null; email: string | null }>(
      t.db,
      sql`select meta_lead_id, email from leads where id = ${target.id}`,
    )
    expect(stored).toEqual({ meta_lead_id: null, email: null })
    expect(await notesOf(target.id)).toHaveLength(1)
  })
})
