// npm run audit:security: sqlmap (Debian's /usr/bin/sqlmap) against the parameters of a running
// server, target by target, each bounded in time: the patient and lead lists (signed in as a demo
// staff user), and the public routes an anonymous caller reaches: the booking page, its slots,
// holds and confirmation, and the providers' webhooks (WhatsApp and Meta handshakes, Twilio and
// SendGrid deliveries). Starts the server on a fresh PGlite database with the demo seed unless
// AUDIT_URL is given.
// Exit 0: nothing injectable and no 500s; 1: injectable or 500s seen; 2: inconclusive/set-up.
//   AUDIT_URL=http://host:port          audit a running server instead of starting one
//   AUDIT_EMAIL / AUDIT_PASSWORD        staff sign-in (default: the demo receptionist)
//   AUDIT_TARGETS=patients,booking-slots  only these targets (default: all; names below)
//   AUDIT_MINUTES=10                    bound on each target's sqlmap run
//   AUDIT_LEVEL=3  AUDIT_RISK=2         sqlmap --level / --risk
//   AUDIT_TECHNIQUE=BEUST               sqlmap --technique ('default': sqlmap's own choice)
// Scripts are not the app, so this one reads its own variables (the app reads env in src/server/env.ts).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from './bench-env'

const SQLMAP = '/usr/bin/sqlmap'
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const env = process.env
const MINUTES = Number(env.AUDIT_MINUTES) || 10
const LEVEL = env.AUDIT_LEVEL || '3'
const RISK = env.AUDIT_RISK || '2'
const TECHNIQUE = env.AUDIT_TECHNIQUE || 'BEUST'
const EMAIL = env.AUDIT_EMAIL || 'receptionist@sanjeevani.demo'
const PASSWORD = env.AUDIT_PASSWORD || 'arogya-demo-2026'
const started = Date.now()
const serverLog: string[] = [] // the started server's output, shown when the audit fails
let interrupted = false

class Inconclusive extends Error {}

const elapsed = () => {
  const s = Math.round((Date.now() - started) / 1000)
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const showServerLog = () =>
  serverLog.length &&
  console.log(`\nServer output (last 20 lines):\n${serverLog.slice(-20).join('\n')}`)

// Everything to undo at the end, newest first: child processes, then the temp directory.
const cleanups: (() => Promise<void> | void)[] = []
let cleaning: Promise<void> | undefined
const cleanup = () =>
  (cleaning ??= (async () => {
    for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => undefined)
  })())

/** Signals a child's process group (children are detached), then SIGKILL after 10 s. */
async function stopChild(child: ChildProcess, signal: NodeJS.Signals) {
  const exited = new Promise((r) => child.once('exit', r))
  for (const s of [signal, 'SIGKILL'] as const) {
    if (!child.pid || child.exitCode !== null || child.signalCode !== null) return
    try {
      process.kill(-child.pid, s)
    } catch {
      return // already gone
    }
    await Promise.race([exited, sleep(10_000)])
  }
}

function ensureSqlmap(): void {
  if (existsSync(SQLMAP)) return
  const install =
    'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sqlmap'
  if (process.getuid?.() !== 0) {
    console.error(
      `audit:security: ${SQLMAP} is missing. Install it with:\n  sudo sh -c '${install}'`,
    )
    process.exit(2)
  }
  console.log('Installing sqlmap from Debian...')
  const result = spawnSync('sh', ['-c', install], { stdio: 'inherit' })
  if (result.status !== 0 || !existsSync(SQLMAP)) throw new Inconclusive('installing sqlmap failed')
}

/** The dev server (no client build needed) on a fresh PGlite database with the demo seed. */
async function startServer(dataDir: string): Promise<string> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/index.ts'], {
    cwd: ROOT,
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'true',
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      BASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // our own Ctrl-C handler stops it, after sqlmap
  })
  cleanups.push(() => stopChild(child, 'SIGTERM'))
  const keep = (chunk: Buffer) => serverLog.push(...chunk.toString().split('\n').filter(Boolean))
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const base = `http://127.0.0.1:${port}`
  for (const deadline = Date.now() + 180_000; Date.now() < deadline; await sleep(500)) {
    if (child.exitCode !== null || child.signalCode !== null) break
    try {
      await fetch(`${base}/api/login`, { redirect: 'manual' })
      console.log(`Server up at ${base} (DATA_DIR ${dataDir}) after ${elapsed()}`)
      return base
    } catch {
      // not listening yet
    }
  }
  throw new Inconclusive('the server did not start (its last output is above)')
}

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(base).origin },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  })
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => /session_token=./.test(c))
  if (!res.ok || !cookie) {
    const body = (await res.text()).slice(0, 300)
    throw new Inconclusive(`sign-in as ${EMAIL} failed: ${res.status} ${body}`)
  }
  return cookie
}

async function firstCursor(base: string, cookie: string): Promise<string> {
  const res = await fetch(`${base}/api/patients?limit=5`, { headers: { cookie } })
  if (!res.ok) throw new Inconclusive(`GET /api/patients?limit=5 answered ${res.status}`)
  const cursor = res.headers.get('x-next-cursor')
  if (!cursor)
    throw new Inconclusive('GET /api/patients?limit=5 gave no x-next-cursor (< 6 patients?)')
  return cursor
}

type SqlmapRun = { output: string; timedOut: boolean }

/** One sqlmap run: a URL, the parameters to test, and a body for a POST. */
interface Target {
  name: string
  url: string
  /** Query or body parameters to test; none: the URL's `*` marks the injection point. */
  params: string[]
  /** A JSON or form body (sqlmap POSTs it and tests its values). */
  data?: string
  /** Signed in as the staff user, or anonymous. */
  signedIn: boolean
}

async function runSqlmap(target: Target, cookie: string, outputDir: string): Promise<SqlmapRun> {
  const args = [
    ...['-u', target.url, '--batch'],
    ...(target.signedIn ? ['--cookie', cookie] : []),
    ...(target.params.length ? ['-p', target.params.join(',')] : []),
    ...(target.data ? ['--data', target.data] : []),
    ...['--level', LEVEL, '--risk', RISK, '--dbms=PostgreSQL', '--threads', '2'],
    ...(TECHNIQUE.toLowerCase() === 'default' ? [] : [`--technique=${TECHNIQUE}`]),
    ...['--flush-session', `--output-dir=${outputDir}`, '--disable-coloring', '--ignore-stdin'],
    '--skip-waf', // the app's 400 for a junk parameter is not a WAF
    // Report every injectable parameter, not only the first; on our Ctrl-C, end detection.
    '--answers=keep testing=Y,detection phase=E',
  ]
  const shown = args.map((a) =>
    a === cookie ? "'<session cookie>'" : a.includes(' ') ? `'${a}'` : a,
  )
  console.log(`\n$ sqlmap ${shown.join(' ')}   (bounded to ${MINUTES} min)\n`)
  const child = spawn(SQLMAP, args, {
    env: { ...env, TERM: 'dumb' }, // no terminal escape codes in the captured output
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  cleanups.push(() => stopChild(child, 'SIGTERM'))
  let output = ''
  const relay = (chunk: Buffer) => {
    output += chunk.toString()
    process.stdout.write(chunk)
  }
  child.stdout?.on('data', relay)
  child.stderr?.on('data', relay)
  const exited = new Promise<void>((r) => child.once('close', () => r()))
  const bound = sleep(MINUTES * 60_000).then(() => 'late' as const)
  if ((await Promise.race([exited, bound])) !== 'late') return { output, timedOut: false }
  console.log(`\n(time is up after ${MINUTES} min: stopping sqlmap)`)
  // One Ctrl-C ends the detection phase (see --answers) and sqlmap prints its HTTP code
  // summary; two within a second make it quit.
  for (const pause of [0, 20_000, 300]) {
    if ((await Promise.race([exited, sleep(pause).then(() => 'wait')])) !== 'wait') break
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGINT') // alive: its group exists
  }
  await Promise.race([exited, sleep(10_000)])
  await stopChild(child, 'SIGKILL')
  return { output, timedOut: true }
}

function judge({ output, timedOut }: SqlmapRun, target: Target): { code: 0 | 1 | 2; line: string } {
  const injectable = new Set<string>()
  for (const m of output.matchAll(/parameter '(\w+)' is vulnerable/g)) injectable.add(m[1]!)
  for (const m of output.matchAll(/^Parameter: (\w+) \(/gm)) injectable.add(m[1]!)
  const identified = output.includes('sqlmap identified the following injection point')
  // sqlmap's summary: "HTTP error codes detected during run: 500 (Internal Server Error) - 3 times"
  const count = (code: RegExp) =>
    [...output.matchAll(/\b(\d{3}) \([^)]*\) - (\d+) times/g)]
      .filter((m) => code.test(m[1]!))
      .reduce((n, m) => n + Number(m[2]), 0)
  const errors = count(/^5/)
  // Public routes are rate-limited: requests answered 429 never reached the database.
  const limited = count(/^429$/)
  const unauthorized = count(/^401$/) > 0 || /not authorized[^\n]*\(401\)/.test(output)
  const safe = output.includes('all tested parameters do not appear to be injectable')
  // sqlmap prints its HTTP code summary (when any) on every exit but a kill.
  const counted = output.includes('[*] ending @')
  const errorText = counted
    ? `${errors} server error${errors === 1 ? '' : 's'} (5xx)`
    : 'server errors (5xx) not counted'
  const limitedText = limited ? `; ${limited} answered 429 (rate limit) before any query` : ''
  const which = [...injectable].join(', ') || 'see the injection points above'
  const verdicts: [boolean, 0 | 1 | 2, string][] = [
    [injectable.size > 0 || identified, 1, `VULNERABLE: injectable parameter(s): ${which}`],
    [errors > 0, 1, 'FAILED: the server answered 5xx to bad input'],
    [unauthorized && target.signedIn, 2, 'INCONCLUSIVE: the session stopped working (401)'],
    [timedOut, 2, `INCONCLUSIVE: sqlmap did not finish in ${MINUTES} min`],
    [
      safe,
      0,
      `no injectable parameter found (${target.params.join(', ') || 'the points marked *'})`,
    ],
    [true, 2, 'INCONCLUSIVE: sqlmap gave no verdict (see its output above)'],
  ]
  const [, code, line] = verdicts.find(([when]) => when)!
  return { code, line: `${line}; ${errorText}${limitedText}; ${elapsed()}` }
}

async function getJson<T>(base: string, path: string, cookie?: string): Promise<T> {
  const res = await fetch(`${base}${path}`, { headers: cookie ? { cookie } : {} })
  if (!res.ok) throw new Inconclusive(`GET ${path} answered ${res.status}`)
  return (await res.json()) as T
}

/** Every target, with real ids and cursors read from the server. */
async function targets(base: string, cookie: string): Promise<Target[]> {
  const cursor = await firstCursor(base, cookie)
  const me = await getJson<{ hospitalId: string }>(base, '/api/auth/user', cookie)
  const { slug } = await getJson<{ slug: string }>(base, '/api/hospital/settings', cookie)
  const page = await getJson<{ services: { id: string }[]; doctors: { id: string }[] }>(
    base,
    `/api/public/booking/${slug}`,
  )
  const service = page.services[0]?.id
  const doctor = page.doctors[0]?.id
  if (!service || !doctor) throw new Inconclusive(`the booking page of ${slug} offers nothing`)
  const date = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
  const booking = `${base}/api/public/booking`
  const hook = `${base}/api/webhooks`
  const handshake = 'hub.mode=subscribe&hub.verify_token=audit-token&hub.challenge=1158201444'
  return [
    {
      name: 'patients',
      url: `${base}/api/patients?search=sharma&cursor=${encodeURIComponent(cursor)}&limit=5`,
      params: ['search', 'cursor'],
      signedIn: true,
    },
    {
      name: 'leads',
      url: `${base}/api/leads?search=sharma&status=new&limit=5`,
      params: ['search', 'status'],
      signedIn: true,
    },
    { name: 'booking-page', url: `${booking}/${slug}*`, params: [], signedIn: false },
    {
      name: 'booking-slots',
      url: `${booking}/${slug}/slots?serviceId=${service}&doctorId=${doctor}&date=${date}`,
      params: ['serviceId', 'doctorId', 'date'],
      signedIn: false,
    },
    {
      name: 'booking-holds',
      url: `${booking}/${slug}/holds`,
      params: [],
      data: JSON.stringify({
        serviceId: service,
        doctorId: doctor,
        startsAt: `${date}T05:30:00.000Z`,
        name: 'Audit Visitor*',
        phone: '9876500001*',
        channel: 'sms',
      }),
      signedIn: false,
    },
    {
      name: 'booking-confirm',
      url: `${booking}/${slug}/holds/00000000-0000-4000-8000-000000000000*/confirm`,
      params: [],
      data: JSON.stringify({ code: '123456' }),
      signedIn: false,
    },
    {
      name: 'webhook-whatsapp',
      url: `${hook}/whatsapp?${handshake}`,
      params: ['hub.mode', 'hub.verify_token', 'hub.challenge'],
      signedIn: false,
    },
    {
      name: 'webhook-meta',
      url: `${hook}/meta?${handshake}`,
      params: ['hub.mode', 'hub.verify_token', 'hub.challenge'],
      signedIn: false,
    },
    {
      name: 'webhook-twilio',
      url: `${hook}/twilio/${me.hospitalId}*/status`,
      params: [],
      data: 'MessageSid=SM0123456789abcdef0123456789abcdef&MessageStatus=delivered',
      signedIn: false,
    },
    {
      name: 'webhook-sendgrid',
      url: `${hook}/sendgrid/${me.hospitalId}*`,
      params: [],
      data: JSON.stringify([{ event: 'delivered', sg_message_id: 'audit.1', email: 'a@b.in' }]),
      signedIn: false,
    },
  ]
}

async function main(): Promise<number> {
  ensureSqlmap()
  const temp = mkdtempSync(join(tmpdir(), 'arogya-audit-security-'))
  chmodSync(temp, 0o700)
  cleanups.push(() => rmSync(temp, { recursive: true, force: true }))
  const dataDir = join(temp, 'data')
  mkdirSync(dataDir, { mode: 0o700 })

  const base = env.AUDIT_URL ? env.AUDIT_URL.replace(/\/+$/, '') : await startServer(dataDir)
  const cookie = await signIn(base) // sign-in failures are throttled: one attempt only
  const only = env.AUDIT_TARGETS?.split(',').map((name) => name.trim())
  const chosen = (await targets(base, cookie)).filter((t) => !only || only.includes(t.name))
  if (!chosen.length) throw new Inconclusive(`no target named ${env.AUDIT_TARGETS}`)
  console.log(
    `Signed in as ${EMAIL}; ${chosen.length} targets: ${chosen.map((t) => t.name).join(', ')}`,
  )
  const verdicts: { name: string; code: 0 | 1 | 2; line: string }[] = []
  for (const target of chosen) {
    const outputDir = join(temp, `sqlmap-${target.name}`)
    mkdirSync(outputDir, { mode: 0o700 })
    console.log(`\n=== ${target.name} ===`)
    const run = await runSqlmap(target, cookie, outputDir)
    if (interrupted) return 2
    verdicts.push({ name: target.name, ...judge(run, target) })
  }
  const code = Math.max(...verdicts.map((v) => (v.code === 1 ? 3 : v.code)))
  if (code !== 0) showServerLog()
  console.log('')
  for (const v of verdicts) console.log(`  ${v.name}: ${v.line}`)
  const worst = code === 3 ? 1 : (code as 0 | 2)
  const summary = ['no injectable parameter and no 5xx', 'VULNERABLE or 5xx', 'INCONCLUSIVE']
  console.log(`\naudit:security: ${summary[worst]} over ${verdicts.length} targets; ${elapsed()}`)
  return worst
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true
    console.error(`\naudit:security: interrupted (${signal}); stopping...`)
    void cleanup().then(() => process.exit(2))
  })
}

let code: number
try {
  code = await main()
} catch (error) {
  code = 2
  if (!interrupted) {
    showServerLog()
    const why = error instanceof Inconclusive ? error.message : String(error)
    console.error(`\naudit:security: INCONCLUSIVE: ${why}; ${elapsed()}`)
  }
}
await cleanup()
process.exit(code)
