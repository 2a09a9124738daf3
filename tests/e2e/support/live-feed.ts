import { expect, type Locator } from '@playwright/test'

/** Spec: pushed events show within 2 s of the action. */
export const PUSHED_MS = 2_000

/**
 * Live Monitoring's feed shows an item with this text stamped at `since` or later (the seed
 * has older sign-ins of the same people), within 2 s.
 */
export async function expectPushedItem(feed: Locator, text: string, since: number): Promise<void> {
  await expect
    .poll(
      () =>
        feed.getByRole('listitem').evaluateAll(
          (items, [want, after]) =>
            items.some((li) => {
              const at = li.querySelector('time')?.dateTime
              return (li.textContent ?? '').includes(want) && !!at && Date.parse(at) >= after
            }),
          [text, since - 1_000] as const,
        ),
      { timeout: PUSHED_MS, message: `“${text}” pushed to the feed` },
    )
    .toBe(true)
}
