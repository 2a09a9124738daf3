import { Globe, Users } from 'lucide-react'
import type { Faq } from '@/shared/schemas/faqs'
import { FaqItem, type FaqItemActions } from './faq-item'

/**
 * Issue 40 item 9: the FAQ screen keeps the patients' FAQs (the public page) apart from the
 * staff-only help, each group in its own order. The order is one list on the server; moving an
 * FAQ swaps it with the neighbour of its own group.
 */
export const faqGroups = [
  {
    isPublic: true,
    id: 'faqs-public',
    title: 'Patient FAQs',
    hint: "Shown on your clinic's public FAQ page (and to staff here).",
    empty:
      'No patient FAQs yet. Add one and choose "Patients (public FAQ page)", or edit a staff FAQ to make it public.',
    Icon: Globe,
  },
  {
    isPublic: false,
    id: 'faqs-staff',
    title: 'Staff help',
    hint: 'Only signed-in staff see these; they never appear on the public page.',
    empty: 'No staff-only help yet.',
    Icon: Users,
  },
] as const

/** The id list after moving `faq` past the next FAQ of its own group (null: nowhere to go). */
export function movedWithinGroup(all: readonly Faq[], faq: Faq, by: -1 | 1): string[] | null {
  const ids = all.map((f) => f.id)
  const at = ids.indexOf(faq.id)
  if (at < 0) return null
  let to = at + by
  while (to >= 0 && to < all.length && all[to]?.isPublic !== faq.isPublic) to += by
  if (to < 0 || to >= all.length) return null
  ;[ids[at], ids[to]] = [ids[to] as string, ids[at] as string]
  return ids
}

export function FaqGroups({
  faqs,
  filtered,
  actions,
}: {
  faqs: readonly Faq[]
  /** A search or category filter is on: empty groups are left out. */
  filtered: boolean
  actions?: FaqItemActions | undefined
}) {
  return (
    <>
      {faqGroups.map((g) => {
        const list = faqs.filter((f) => f.isPublic === g.isPublic)
        if (filtered && list.length === 0) return null
        return (
          <section key={g.id} aria-labelledby={g.id} className="space-y-3">
            <div>
              <h2 id={g.id} className="flex items-center gap-2 text-lg font-semibold">
                <g.Icon className="size-5 text-brand-700" aria-hidden="true" />
                {g.title}
                <span className="text-sm font-normal text-slate-600">({list.length})</span>
              </h2>
              <p className="text-sm text-slate-600">{g.hint}</p>
            </div>
            {list.length === 0 ? (
              <p className="rounded-lg border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-600">
                {g.empty}
              </p>
            ) : (
              <ol className="space-y-3" aria-label={`${g.title} in order`}>
                {list.map((faq, i) => (
                  <li key={faq.id}>
                    <FaqItem
                      faq={faq}
                      first={i === 0}
                      last={i === list.length - 1}
                      actions={actions}
                    />
                  </li>
                ))}
              </ol>
            )}
          </section>
        )
      })}
    </>
  )
}
