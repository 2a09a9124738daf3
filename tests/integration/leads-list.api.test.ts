import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PAGE_SIZE } from '../../src/shared/schemas/common'
import { type Lead, leadSources, leadStatuses } from '../../src/shared/schemas/leads'
import { expectError, issuePaths } from '../support/http'
import { call, leadsPageOf, newLead, patchLead, uniqueMobile } from '../support/leads'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'

let t: TestApp
let admin: string
let receptionist: string
let sanjeevaniId: string
/** Leads this file made, all named 'Zephyrine ...' so a search finds exactly them. */
const made: Lead[] = []

beforeAll(async () => {
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  receptionist = await login(t.app, demoEmail('receptionist'))
  sanjeevaniId = await hospitalIdOf(t.db, 'sanjeevani')
  const receptionistId = await userIdOf(t.db, demoEmail('receptionist'))
  const doctorId = await userIdOf(t.db, demoEmail('doctor'))
  const sources = ['manual', 'walk-in', 'referral', 'google-ads'] as const
  for (let i = 0; i < 12; i++) {
    made.push(
      await newLead(t.app, admin, {
        name: `Zephyrine ${String.fromCharCode(65 + i)} Test`,
        email: `zephyrine.${i}@example.com`,
        phone: `97${String(i).padStart(2, '0')}0 ${String(12345 + i)}`,
        source: sources[i % 4],
        assignedToUserId: i % 3 === 0 ? receptionistId : i % 3 === 1 ? doctorId : null,
      }),
    )
  }
  await patchLead(t.app, admin, made[0]!.id, { status: 'contacted' })
  await patchLead(t.app, admin, made[1]!.id, { status: 'rejected' })
})
afterAll(async () => {
  await t?.close()
})

/** Every page of a query, following the cursor. */
async function allPages(query: string, limit: number): Promise<Lead[]> {
  const seen: Lead[] = []
  let cursor: string | null = null
  for (let pages = 0; pages < 1000; pages++) {
    const sep = query ? '&' : '?'
    const page = await leadsPageOf(
      t.app,
      admin,
      `${query}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
    )
    expect(page.leads.length).toBeLessThanOrEqual(limit)
    seen.push(...page.leads)
    cursor = page.nextCursor
    if (!cursor) return seen
    expect(page.leads).toHaveLength(limit)
  }
  throw new Error('too many pages')
}

/** The hospital's leads in list order, read directly (RLS-exempt), with an optional filter. */
async function expectedIds(where = sql`true`): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    t.db,
    sql`select id from leads where hospital_id = ${sanjeevaniId} and ${where}
        order by created_at desc, id desc`,
  )
  return rows.map((r) => r.id)
}

describe('GET /api/leads paging', () => {
  it('answers the first page of 30 newest first, with a cursor when there is more', async () => {
    const page = await leadsPageOf(t.app, admin)
    const all = await expectedIds()
    expect(page.leads.map((l) => l.id)).toEqual(all.slice(0, PAGE_SIZE))
    expect(page.nextCursor === null).toBe(all.length <= PAGE_SIZE)
  })

  it.each([1, 7, 100])('pages of %i cover every lead once, in order', async (limit) => {
    const ids = (await allPages('', limit)).map((l) => l.id)
    expect(ids).toEqual(await expectedIds())
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('pages through a filter without gaps or duplicates', async () => {
    const ids = (await allPages('?search=zephyrine', 5)).map((l) => l.id)
    expect(ids).toEqual(made.map((l) => l.id).reverse())
  })

  it('keeps leads created in the same instant in a stable order', async () => {
    await queryRows(
      t.db,
      sql`update leads set created_at = '2026-01-01T10:00:00.123456Z' where name like 'Zephyrine%'`,
    )
    const ids = (await allPages('?search=zephyrine', 3)).map((l) => l.id)
    expect(ids).toEqual(
      made
        .map((l) => l.id)
        .sort()
        .reverse(),
    )
  })

  it('ends the list at a cursor of another hospital or an unknown lead', async () => {
    const smile = await login(t.app, demoEmail('admin', 'smiledental'))
    const page = await leadsPageOf(t.app, smile, `?cursor=${made[0]!.id}`)
    expect(page).toEqual({ leads: [], nextCursor: null })
  })

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?limit=abc', 'limit'],
    ['?cursor=not-a-uuid', 'cursor'],
    ['?status=won', 'status'],
    ['?source=tv', 'source'],
    ['?search=' + 'x'.repeat(201), 'search'],
    ['?sort=name', 'query'],
  ])('answers %s with 400 on %s', async (query, path) => {
    expect(issuePaths(await call(t.app, admin, 'GET', `/api/leads${query}`))).toEqual([path])
  })
})

describe('GET /api/leads filters', () => {
  it.each(leadStatuses)('status=%s returns exactly the leads in it', async (status) => {
    const ids = (await allPages(`?status=${status}`, 100)).map((l) => l.id)
    expect(ids).toEqual(await expectedIds(sql`status = ${status}`))
  })

  it.each(leadSources)('source=%s returns exactly the leads from it', async (source) => {
    const ids = (await allPages(`?source=${source}`, 100)).map((l) => l.id)
    expect(ids).toEqual(await expectedIds(sql`source = ${source}`))
  })

  it("'all' is no filter", async () => {
    const page = await leadsPageOf(t.app, admin, '?status=all&source=all&limit=100')
    expect(page.leads.map((l) => l.id)).toEqual((await expectedIds()).slice(0, 100))
  })

  it('combines filters', async () => {
    const page = await leadsPageOf(t.app, admin, '?search=zephyrine&status=new&source=manual')
    expect(page.leads.map((l) => l.name).sort()).toEqual(['Zephyrine E Test', 'Zephyrine I Test'])
  })

  it('assignee: me, unassigned, or a user id', async () => {
    const names = async (query: string) =>
      (await leadsPageOf(t.app, receptionist, `?search=zephyrine&${query}`)).leads
        .map((l) => l.name.split(' ')[1])
        .sort()
    expect(await names('assignee=me')).toEqual(['A', 'D', 'G', 'J'])
    expect(await names('assignee=unassigned')).toEqual(['C', 'F', 'I', 'L'])
    const doctorId = await userIdOf(t.db, demoEmail('doctor'))
    expect(await names(`assignee=${doctorId}`)).toEqual(['B', 'E', 'H', 'K'])
    expect(await names('assignee=nobody-at-all')).toEqual([])
    const mine = await leadsPageOf(t.app, receptionist, '?search=zephyrine&assignee=me')
    expect(mine.leads.every((l) => l.assignedToName && l.assignedToUserId)).toBe(true)
  })
})

describe('GET /api/leads search (prefixes, as for patients)', () => {
  const found = async (search: string) =>
    (await leadsPageOf(t.app, admin, `?search=${encodeURIComponent(search)}&limit=100`)).leads
      .filter((l) => l.name.startsWith('Zephyrine'))
      .map((l) => l.name.split(' ')[1])
      .sort()

  it.each([
    ['zephyrine', 12],
    ['ZEPHYRINE', 12],
    ['  zephyrine   b ', 1],
    ['zephyrine b test', 1],
    ['zephyrine.1', 3],
    ['zephyrine.11@example.com', 1],
    ['97030', 1],
    ['+91 97030', 1],
    ['097030 12348', 1],
    ['919703012348', 1],
    ['test', 0],
    ['%', 0],
    ['_', 0],
    ["zephyrine' or '1'='1", 0],
  ])('%j finds %i', async (search, n) => {
    expect(await found(search)).toHaveLength(n)
  })

  it('an empty search is no filter', async () => {
    const page = await leadsPageOf(t.app, admin, '?search=%20%20')
    expect(page.leads.map((l) => l.id)).toEqual((await expectedIds()).slice(0, PAGE_SIZE))
  })

  it('finds a lead made just now by its phone', async () => {
    const phone = uniqueMobile()
    const fresh = await newLead(t.app, admin, { name: 'Phone Search', phone })
    const page = await leadsPageOf(t.app, admin, `?search=${phone.slice(0, 7)}`)
    expect(page.leads.map((l) => l.id)).toContain(fresh.id)
  })
})

it('signed out is 401', async () => {
  expectError(await call(t.app, undefined, 'GET', '/api/leads'), 401, 'UNAUTHENTICATED')
})
