import { describe, expect, it } from 'vitest'

describe('zod-jitless', () => {
  it("turns zod's jitless mode on before zod loads", async () => {
    await import('./zod-jitless')
    const { config } = await import('zod/v4/core')
    expect(config().jitless).toBe(true)
  })
})
