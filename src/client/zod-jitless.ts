/**
 * Zod compiles fast parsers with `new Function` when it may. Under the app's CSP (no
 * 'unsafe-eval') its probe is refused and the browser reports a CSP violation on every page
 * that parses a form. Jitless parsing is plenty for form-sized input, so the client asks for it.
 *
 * `z.config({ jitless: true })` would do it but would pull zod's core into the entry chunk
 * (about 11 KB); zod keeps that config on `globalThis.__zod_globalConfig` and adopts an object
 * already there, so the entry sets it before any zod module loads. zod-jitless.test.ts fails if a
 * zod upgrade stops reading it.
 */
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> }
holder.__zod_globalConfig ??= {}
holder.__zod_globalConfig.jitless = true
export {}
