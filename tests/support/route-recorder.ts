import type * as FastifyModule from 'fastify'
import type { RouteOptions } from 'fastify'

/** A route as an app registered it: method, URL pattern and its declared access rule. */
export interface SeenRoute {
  method: string
  url: string
  access: unknown
}

/**
 * The fastify module, changed so that every instance it makes reports each route it registers
 * to `seen` (an onRoute hook added at creation, before any plugin). For `vi.mock('fastify')`:
 *
 *   const routes = vi.hoisted(() => [] as SeenRoute[])
 *   vi.mock('fastify', async (importOriginal) => {
 *     const { recordingFastify } = await import('../support/route-recorder')
 *     return recordingFastify(await importOriginal(), routes)
 *   })
 */
export function recordingFastify(
  original: typeof FastifyModule,
  seen: SeenRoute[],
): typeof FastifyModule {
  const factory = ((opts?: object) => {
    const instance = original.default(opts)
    instance.addHook('onRoute', (route: RouteOptions) => {
      for (const method of ([] as string[]).concat(route.method)) {
        seen.push({
          method,
          url: route.url,
          access: (route.config as { access?: unknown } | undefined)?.access,
        })
      }
    })
    return instance
  }) as unknown as typeof original.default
  return { ...original, default: factory, fastify: factory }
}
