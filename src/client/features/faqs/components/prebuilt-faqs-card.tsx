import { Sparkles } from 'lucide-react'
import { Badge } from '@/client/components/ui/badge'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { toast } from '@/client/lib/toast'
import { faqAnswerText } from '@/shared/faq-format'
import { faqSuggestions } from '@/shared/faq-suggestions'
import { faqCategoryLabels } from '@/shared/schemas/faqs'
import { useAddSuggestedFaqs } from '../api/add-suggested-faqs'

/**
 * Spec section 2: when the hospital has no FAQs, the first 3 of the 8 suggested ones and
 * 'Add All' for all 8 (editors only), added staff-only (issue 40 item 9).
 */
export function PrebuiltFaqsCard({ canWrite }: { canWrite: boolean }) {
  const add = useAddSuggestedFaqs()

  async function addAll() {
    try {
      const result = await add.mutateAsync()
      toast.success(
        'FAQ created successfully',
        `${result.added} pre-built ${result.added === 1 ? 'FAQ' : 'FAQs'} added as staff help.`,
      )
    } catch (error) {
      toast.failed('Failed to create FAQ', error, 'Please try again.')
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Sparkles className="size-5 text-brand-700" aria-hidden="true" />
          Get Started with Pre-built FAQs
        </CardTitle>
        <p className="text-sm text-slate-600">
          {faqSuggestions.length} how-tos for your team, written for Indian clinics. They are added
          as staff-only help, never shown on your public FAQ page; edit any of them to suit your
          clinic, or to make it public.
        </p>
      </CardHeader>
      <CardContent className="space-y-3">
        <ul className="space-y-2">
          {faqSuggestions.slice(0, 3).map((s) => (
            <li key={s.key} className="rounded-md border border-slate-200 p-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="font-medium text-slate-900">{s.question}</p>
                <span className="flex flex-wrap gap-1.5">
                  <Badge variant="secondary">{faqCategoryLabels[s.category]}</Badge>
                  <Badge variant="yellow">Staff only</Badge>
                </span>
              </div>
              <p className="mt-1 line-clamp-2 text-sm text-slate-600">{faqAnswerText(s.answer)}</p>
            </li>
          ))}
        </ul>
        {canWrite ? (
          <Button onClick={() => void addAll()} loading={add.isPending} loadingText="Adding...">
            Add All
          </Button>
        ) : (
          <p className="text-sm text-slate-600">An admin or receptionist can add them.</p>
        )}
      </CardContent>
    </Card>
  )
}
