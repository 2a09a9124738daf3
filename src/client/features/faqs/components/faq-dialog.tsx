import { zodResolver } from '@hookform/resolvers/zod'
import { Controller, useForm } from 'react-hook-form'
import type { z } from 'zod'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect, Textarea } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import {
  FAQ_ANSWER_MAX,
  FAQ_QUESTION_MAX,
  type Faq,
  faqCategories,
  faqCategoryLabels,
} from '@/shared/schemas/faqs'
import { useSaveFaq } from '../api/save-faq'
import { faqFormSchema, type FaqFormValues, faqValuesOf, newFaqValues } from './faq-form-values'

type Name = keyof FaqFormValues

const visibilityOptions = [
  {
    isPublic: true,
    label: 'Patients (public FAQ page)',
    hint: "Shown on your clinic's public FAQ page, and to staff here.",
  },
  {
    isPublic: false,
    label: 'Staff only',
    hint: 'Help for your team: only signed-in staff see it, never the public page.',
  },
] as const

/**
 * Add FAQ / Edit FAQ (spec section 2): question and answer required, category, sortOrder, and who
 * sees it: patients (the public FAQ page) or staff only (issue 40 item 9).
 */
export function FaqDialog({
  open,
  faq,
  onClose,
}: {
  open: boolean
  /** null: a new FAQ. */
  faq: Faq | null
  onClose: () => void
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose()
      }}
      title={faq ? 'Edit FAQ' : 'Add FAQ'}
      description="Patient FAQs appear on your clinic's public FAQ page; staff-only help stays inside the app."
    >
      {open ? <FaqForm key={faq?.id ?? 'new'} faq={faq} onDone={onClose} /> : null}
    </Dialog>
  )
}

function FaqForm({ faq, onDone }: { faq: Faq | null; onDone: () => void }) {
  const form = useForm<FaqFormValues, unknown, z.output<typeof faqFormSchema>>({
    defaultValues: faq ? faqValuesOf(faq) : newFaqValues,
    resolver: zodResolver(faqFormSchema),
  })
  const save = useSaveFaq()
  const errors = form.formState.errors
  const a11y = (name: Name) => ({
    id: `faq-${name}`,
    'aria-invalid': Boolean(errors[name]),
    'aria-describedby': errors[name] ? `faq-${name}-error` : undefined,
  })
  const verb = faq ? 'update' : 'create'

  const submit = form.handleSubmit(async (input) => {
    try {
      await save.mutateAsync(faq ? { id: faq.id, input } : { id: null, input })
      toast.success(faq ? 'FAQ updated successfully' : 'FAQ created successfully')
      onDone()
    } catch (error) {
      if (error instanceof ApiError) {
        for (const [path, message] of Object.entries(error.fieldErrors)) {
          if (path in newFaqValues) form.setError(path as Name, { type: 'server', message })
        }
      }
      toast.failed(`Failed to ${verb} FAQ`, error, 'Please try again.')
    }
  })

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      <Field id="faq-question" label="Question" required error={errors.question?.message}>
        <Input
          {...a11y('question')}
          {...form.register('question')}
          maxLength={FAQ_QUESTION_MAX}
          placeholder="e.g. What are your OPD timings?"
        />
      </Field>
      <Field
        id="faq-answer"
        label="Answer"
        required
        error={errors.answer?.message}
        hint='A blank line starts a new paragraph; start lines with "- " or "1. " for a list; [text](https://…) makes a link.'
      >
        <Textarea
          {...a11y('answer')}
          {...form.register('answer')}
          rows={7}
          maxLength={FAQ_ANSWER_MAX}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="faq-category" label="Category" error={errors.category?.message}>
          <NativeSelect {...a11y('category')} {...form.register('category')}>
            {faqCategories.map((c) => (
              <option key={c} value={c}>
                {faqCategoryLabels[c]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field
          id="faq-sortOrder"
          label="Sort order"
          error={errors.sortOrder?.message}
          hint="Lower numbers come first."
        >
          <Input
            {...a11y('sortOrder')}
            {...form.register('sortOrder', { valueAsNumber: true })}
            type="number"
            min={0}
            step={1}
            inputMode="numeric"
          />
        </Field>
      </div>
      <Controller
        control={form.control}
        name="isPublic"
        render={({ field }) => (
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">Who can see this FAQ?</legend>
            {visibilityOptions.map((o) => (
              <label
                key={o.label}
                className="flex items-start gap-3 rounded-md border border-slate-200 p-3 text-sm has-[:checked]:border-brand-600"
              >
                <input
                  type="radio"
                  name={field.name}
                  className="mt-0.5 size-4"
                  checked={field.value === o.isPublic}
                  onChange={() => field.onChange(o.isPublic)}
                  onBlur={field.onBlur}
                />
                <span>
                  <span className="font-medium">{o.label}</span>
                  <span className="block text-slate-600">{o.hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
        )}
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={save.isPending} loadingText="Saving...">
          {faq ? 'Update FAQ' : 'Add FAQ'}
        </Button>
      </div>
    </form>
  )
}
