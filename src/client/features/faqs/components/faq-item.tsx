import { ArrowDown, ArrowUp, Pencil, Trash2 } from 'lucide-react'
import { Badge } from '@/client/components/ui/badge'
import { Button } from '@/client/components/ui/button'
import { Card } from '@/client/components/ui/card'
import { type Faq, faqCategoryLabels } from '@/shared/schemas/faqs'
import { FaqAnswer } from './faq-answer'

export interface FaqItemActions {
  onEdit: (faq: Faq) => void
  onDelete: (faq: Faq) => void
  /** Absent while a search or filter shows part of the list (the order is of the whole list). */
  onMove?: ((faq: Faq, by: -1 | 1) => void) | undefined
  moving: boolean
}

/** One FAQ: question, category, who sees it (Public page or Staff only), the formatted answer, and the editor's buttons. */
export function FaqItem({
  faq,
  first,
  last,
  actions,
}: {
  faq: Faq
  first: boolean
  last: boolean
  /** Absent for members who may only read. */
  actions?: FaqItemActions | undefined
}) {
  const headingId = `faq-${faq.id}-question`
  return (
    <Card className="p-4 sm:p-5">
      <article aria-labelledby={headingId} className="space-y-3">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h3 id={headingId} className="min-w-0 flex-1 text-base font-semibold text-slate-900">
            {faq.question}
          </h3>
          <div className="flex flex-wrap gap-1.5">
            <Badge variant="secondary">{faqCategoryLabels[faq.category]}</Badge>
            {faq.isPublic ? (
              <Badge variant="green">Public page</Badge>
            ) : (
              <Badge variant="yellow">Staff only</Badge>
            )}
          </div>
        </div>
        <FaqAnswer answer={faq.answer} />
        {actions ? (
          <div className="flex flex-wrap items-center gap-2 border-t border-slate-100 pt-3">
            <Button variant="outline" size="sm" onClick={() => actions.onEdit(faq)}>
              <Pencil aria-hidden="true" /> Edit
              <span className="sr-only"> FAQ: {faq.question}</span>
            </Button>
            <Button
              variant="outline"
              size="sm"
              className="text-red-700"
              onClick={() => actions.onDelete(faq)}
            >
              <Trash2 aria-hidden="true" /> Delete
              <span className="sr-only"> FAQ: {faq.question}</span>
            </Button>
            {actions.onMove ? (
              <div className="ml-auto flex gap-1">
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Move up: ${faq.question}`}
                  disabled={first || actions.moving}
                  onClick={() => actions.onMove?.(faq, -1)}
                >
                  <ArrowUp aria-hidden="true" />
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Move down: ${faq.question}`}
                  disabled={last || actions.moving}
                  onClick={() => actions.onMove?.(faq, 1)}
                >
                  <ArrowDown aria-hidden="true" />
                </Button>
              </div>
            ) : null}
          </div>
        ) : null}
      </article>
    </Card>
  )
}
