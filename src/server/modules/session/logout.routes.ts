import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { fromNodeHeaders } from 'better-auth/node'
import { publicRoute, resolveActor } from '../../auth/access'
import { copyHeaders } from '../../auth/forward'
import { recordSignOut } from '../live-monitoring/sign-in-out'
import { recordSecurityEvent } from '../security/security-log'
import type { SessionRouteDeps } from './session.deps'
import { endAllSessions } from './session.service'

/** Shown when a sign-out link was followed without a same-origin signal (maybe cross-site). */
const confirmPage = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign out? · Arogya CRM</title>
<style>
body{margin:0;padding:0 1rem;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f8fafc;color:#0f172a}
main{max-width:28rem;margin:15vh auto 0;padding:1.5rem;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem}
h1{margin:0 0 .75rem;font-size:1.375rem}
p{line-height:1.5}
button{width:100%;height:2.75rem;border:0;border-radius:.5rem;background:#0f766e;color:#fff;font-size:1rem;cursor:pointer}
button:focus-visible,a:focus-visible{outline:3px solid #134e4a;outline-offset:2px}
a{color:#0f766e}
</style></head>
<body>
<main>
<h1>Sign out?</h1>
<p>Do you want to sign out of Arogya CRM on this device and everywhere else you are signed in?</p>
<form method="post" action="/api/logout"><button type="submit">Sign out</button></form>
<p><a href="/">Stay signed in</a></p>
</main>
</body>
</html>
`

/**
 * Sign-out is the spec's browser navigation to /api/logout. A navigation the browser marks
 * as this site's own (Sec-Fetch-Site same-origin, or none: typed or bookmarked) signs out at
 * once; anything else (another site's link, an old browser) gets a 'Sign out?' page whose
 * button POSTs here behind the same-origin guard, so no other site can sign a user out.
 */
export function logoutRoutes(app: FastifyInstance, deps: SessionRouteDeps): void {
  async function signOut(req: FastifyRequest, reply: FastifyReply) {
    const actor = await resolveActor(deps, req)
    if (actor) {
      const result = await deps.auth.api.signOut({
        headers: fromNodeHeaders(req.headers),
        returnHeaders: true,
      })
      copyHeaders(result.headers, reply)
      await endAllSessions(deps.db, actor.userId)
      await recordSignOut(deps.db, actor)
      await recordSecurityEvent(deps.db, {
        event: 'sign_out',
        userId: actor.userId,
        email: actor.email,
        hospitalId: actor.hospitalId,
        impersonatorUserId: actor.impersonatedBy,
        ip: req.ip,
      })
    }
    // After the form's POST, 303 makes the browser GET the home page; ?next=login (a member's
    // "Login as Admin", issue 40 item 13) the sign-in page. No other target: no open redirect.
    const next = (req.query as { next?: unknown } | undefined)?.next === 'login' ? '/login' : '/'
    return reply.redirect(next, req.method === 'POST' ? 303 : 302)
  }

  app.get('/api/logout', { config: publicRoute }, async (req, reply) => {
    const site = req.headers['sec-fetch-site']
    if (site === 'same-origin' || site === 'none') return signOut(req, reply)
    if (!req.headers.cookie?.includes('session_token=')) return reply.redirect('/')
    return (
      reply
        .header('cache-control', 'no-store')
        // With helmet's no-referrer, the form's POST would carry `Origin: null`, which the
        // same-origin guard refuses; same-origin sends our own origin and nothing elsewhere.
        .header('referrer-policy', 'same-origin')
        .type('text/html; charset=utf-8')
        .send(confirmPage)
    )
  })

  // The confirm page's form posts url-encoded; the parser exists only in this scope. A
  // text/plain body is refused (415): this route ignores its body, so it must not accept one
  // that other routes would answer 400 at validation. JSON or that form, nothing else.
  void app.register(async (scope) => {
    scope.removeContentTypeParser('text/plain')
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_req, _body, done) => done(null, {}),
    )
    scope.post('/api/logout', { config: publicRoute }, signOut)
  })
}
