import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query'
import { CircleCheck } from 'lucide-react'
import { useContext, useState } from 'react'
import { type Resolver, useForm } from 'react-hook-form'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { ApiError } from '@/client/lib/api-client'
import { createQueryClient } from '@/client/lib/query-client'
import { SUPPORT_RESPONSE_TIME } from '@/shared/plans'
import {
  createDemoRequestInput,
  type DemoRequestReceipt,
  type DemoRequestSource,
  preferredTimeLabels,
  preferredTimes,
} from '@/shared/schemas/demo-requests'
import { useCreateDemoRequest } from '../api/create-demo-request'
import { DemoRequestFields, type DemoFormValues, emptyDemoForm } from './demo-request-fields'

/** '+919876543210' as '+91 98765 43210'. */
function showMobile(e164: string): string {
  return `+91 ${e164.slice(3, 8)} ${e164.slice(8)}`
}

function makeResolver(source: DemoRequestSource): Resolver<DemoFormValues> {
  return (values) => {
    const parsed = createDemoRequestInput.safeParse({ ...values, source })
    if (parsed.success) return { values, errors: {} }
    const errors: Record<string, { type: string; message: string }> = {}
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? 'root')
      errors[key] ??= { type: 'validation', message: issue.message }
    }
    return { values: {}, errors }
  }
}

interface DialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  source: DemoRequestSource
}

/**
 * The Schedule Demo form. The signed-out marketing app runs without a query client (to keep
 * the landing bundle small), so the form brings its own when none is provided.
 */
export function DemoRequestDialog(props: DialogProps) {
  const provided = useContext(QueryClientContext)
  const [own] = useState(() => (provided ? null : createQueryClient()))
  return own ? (
    <QueryClientProvider client={own}>
      <DemoRequestForm {...props} />
    </QueryClientProvider>
  ) : (
    <DemoRequestForm {...props} />
  )
}

/** Stores a demo request, then shows a confirmation. */
function DemoRequestForm({ open, onOpenChange, source }: DialogProps) {
  const [resolver] = useState(() => makeResolver(source))
  const form = useForm<DemoFormValues>({
    defaultValues: emptyDemoForm,
    resolver,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  })
  const create = useCreateDemoRequest()
  const [receipt, setReceipt] = useState<DemoRequestReceipt | null>(null)
  const [formError, setFormError] = useState<string | null>(null)

  function changeOpen(next: boolean) {
    if (!next && receipt) {
      setReceipt(null)
      form.reset(emptyDemoForm)
      create.reset()
    }
    onOpenChange(next)
  }

  const submit = form.handleSubmit(async (values) => {
    setFormError(null)
    try {
      setReceipt(await create.mutateAsync({ ...values, source }))
    } catch (error) {
      if (!(error instanceof ApiError)) {
        setFormError('Could not reach the server. Check your connection and try again.')
        return
      }
      for (const [path, message] of Object.entries(error.fieldErrors)) {
        if (path in emptyDemoForm)
          form.setError(path as keyof DemoFormValues, { type: 'server', message })
      }
      setFormError(error.serverMessage)
    }
  })

  return (
    <Dialog
      open={open}
      onOpenChange={changeOpen}
      title={receipt ? 'Demo request received' : 'Schedule a Demo'}
      description={
        receipt
          ? undefined
          : 'A product specialist will walk you through Arogya CRM and answer your questions.'
      }
      className="max-w-lg"
    >
      {receipt ? (
        <div className="space-y-4 text-center" role="status">
          <CircleCheck className="mx-auto size-12 text-emerald-600" aria-hidden="true" />
          <p className="text-lg font-semibold text-slate-900">Thank you, {receipt.name}!</p>
          <p className="text-slate-600">
            We will call you on{' '}
            <span className="font-semibold whitespace-nowrap text-slate-900">
              {showMobile(receipt.mobile)}
            </span>
            {receipt.preferredTime === 'any'
              ? ''
              : ` in the ${preferredTimeLabels[receipt.preferredTime].toLowerCase()}`}{' '}
            to set up your demo. We usually respond within {SUPPORT_RESPONSE_TIME}.
          </p>
          <Button type="button" onClick={() => changeOpen(false)} className="w-full">
            Close
          </Button>
        </div>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
          <DemoRequestFields form={form} times={preferredTimes} />
          {formError ? (
            <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-700">
              {formError}
            </p>
          ) : null}
          <Button
            type="submit"
            className="w-full"
            size="lg"
            loading={create.isPending}
            loadingText="Sending your request..."
          >
            Request Demo
          </Button>
          <p className="text-center text-xs text-slate-500">
            We use these details only to arrange your demo.
          </p>
        </form>
      )}
    </Dialog>
  )
}
