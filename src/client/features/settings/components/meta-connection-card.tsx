import { CheckCircle2, CircleDashed, PlugZap, TriangleAlert } from 'lucide-react'
import { useState } from 'react'
import { type Resolver, useForm } from 'react-hook-form'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { Field } from '@/client/components/ui/field'
import { Input } from '@/client/components/ui/input'
import { Skeleton } from '@/client/components/ui/skeleton'
import { useMessagingSettings } from '@/client/components/messaging/api/messaging-settings'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import { formatAgo } from '@/shared/dates'
import {
  type MetaConnectionView,
  saveMetaConnectionInput,
  type SaveMetaConnectionInput,
} from '@/shared/schemas/meta'
import {
  useMetaConnection,
  useSaveMetaConnection,
  useTestMetaConnection,
} from '../api/meta-connection'

const secretFields = [
  { name: 'pageAccessToken', label: 'Page access token' },
  { name: 'appSecret', label: 'App secret' },
  { name: 'verifyToken', label: 'Webhook verify token' },
] as const
type SecretName = (typeof secretFields)[number]['name']
type FormValues = { pageId: string } & Record<SecretName, string>

/** What is stored, in words: a secret is never shown, only that it is set and how it ends. */
function storedText(hint: MetaConnectionView[SecretName]): string {
  if (!hint.set) return 'Not set'
  return hint.last4 ? `Set, ends in ${hint.last4}` : 'Set'
}

/**
 * The form sends what the user typed: the page ID when changed, and each secret only when a
 * new value was typed (an empty box leaves the stored one as it is).
 */
function payloadOf(values: FormValues, saved: MetaConnectionView): SaveMetaConnectionInput {
  const input: SaveMetaConnectionInput = {}
  if (values.pageId.trim() !== (saved.pageId ?? '')) input.pageId = values.pageId.trim()
  for (const { name } of secretFields) if (values[name].trim()) input[name] = values[name].trim()
  return input
}

const resolver: Resolver<FormValues> = (values) => {
  const parsed = saveMetaConnectionInput.safeParse({
    pageId: values.pageId,
    ...Object.fromEntries(secretFields.map(({ name }) => [name, values[name] || undefined])),
  })
  if (parsed.success) return { values, errors: {} }
  return {
    values: {},
    errors: Object.fromEntries(
      parsed.error.issues.map((i) => [
        String(i.path[0]),
        { type: 'validation', message: i.message },
      ]),
    ),
  }
}

function ConnectionForm({ saved }: { saved: MetaConnectionView }) {
  const save = useSaveMetaConnection()
  const test = useTestMetaConnection()
  const messaging = useMessagingSettings()
  const [clearing, setClearing] = useState<SecretName | null>(null)
  const form = useForm<FormValues>({
    defaultValues: {
      pageId: saved.pageId ?? '',
      pageAccessToken: '',
      appSecret: '',
      verifyToken: '',
    },
    resolver,
  })
  const errors = form.formState.errors

  async function send(input: SaveMetaConnectionInput, done: string) {
    try {
      const next = await save.mutateAsync(input)
      form.reset({ pageId: next.pageId ?? '', pageAccessToken: '', appSecret: '', verifyToken: '' })
      toast.success(done)
    } catch (error) {
      if (error instanceof ApiError)
        for (const [path, message] of Object.entries(error.fieldErrors))
          if (path === 'pageId' || secretFields.some((f) => f.name === path))
            form.setError(path as keyof FormValues, { type: 'server', message })
      toast.error('Error', error instanceof ApiError ? error.serverMessage : 'Failed to save.')
    }
  }

  const submit = form.handleSubmit(async (values) => {
    const input = payloadOf(values, saved)
    if (Object.keys(input).length === 0) {
      toast.info('No changes to save')
      return
    }
    await send(input, 'Settings saved successfully')
  })

  async function clearSecret(name: SecretName) {
    setClearing(name)
    await send({ [name]: '' }, 'Removed')
    setClearing(null)
  }

  async function testConnection() {
    try {
      const result = await test.mutateAsync()
      toast.success(`Connected to ${result.pageName}`)
    } catch (error) {
      toast.error(
        'Connection failed',
        error instanceof ApiError ? error.serverMessage : 'Could not reach Meta. Please try again.',
      )
    }
  }

  // The server builds every public URL (BASE_URL, else this origin), as for the other webhooks.
  const webhookUrl =
    messaging.data?.webhookUrls.metaLeads ?? `${window.location.origin}/api/webhooks/meta`
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      <Field id="meta-page-id" label="Facebook page ID" error={errors.pageId?.message}>
        <Input
          id="meta-page-id"
          inputMode="numeric"
          autoComplete="off"
          aria-invalid={errors.pageId ? true : undefined}
          aria-describedby={errors.pageId ? 'meta-page-id-error' : undefined}
          {...form.register('pageId')}
        />
      </Field>
      {secretFields.map(({ name, label }) => {
        const hint = saved[name]
        const id = `meta-${name}`
        return (
          <div key={name} className="flex flex-col gap-2 sm:flex-row sm:items-end">
            <div className="min-w-0 flex-1">
              <Field
                id={id}
                label={label}
                error={errors[name]?.message}
                hint={`${storedText(hint)}. Type a new value to replace it.`}
              >
                <Input
                  id={id}
                  type="password"
                  autoComplete="new-password"
                  placeholder={hint.set ? '••••••••' : ''}
                  aria-invalid={errors[name] ? true : undefined}
                  aria-describedby={errors[name] ? `${id}-error` : undefined}
                  {...form.register(name)}
                />
              </Field>
            </div>
            {hint.set ? (
              <Button
                type="button"
                variant="outline"
                className="sm:mb-6"
                loading={clearing === name}
                loadingText="Removing..."
                onClick={() => void clearSecret(name)}
              >
                Remove<span className="sr-only"> {label.toLowerCase()}</span>
              </Button>
            ) : null}
          </div>
        )
      })}
      <p className="text-sm text-slate-600">
        Webhook callback URL for Meta&apos;s app dashboard:{' '}
        <code className="rounded bg-slate-100 px-1 py-0.5 text-slate-800">{webhookUrl}</code>
      </p>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button
          type="button"
          variant="outline"
          onClick={() => void testConnection()}
          loading={test.isPending}
          loadingText="Testing..."
          disabled={!saved.pageId || !saved.pageAccessToken.set}
        >
          <PlugZap aria-hidden="true" />
          Test Connection
        </Button>
        <Button type="submit" loading={save.isPending && clearing === null} loadingText="Saving...">
          Save Meta connection
        </Button>
      </div>
    </form>
  )
}

/**
 * What is wrong, in Meta's words or ours: the token or app secret Meta refused (lastError), and
 * the webhook's own problem (deliveries failing the signature check, the page taken over by
 * another hospital or released by the platform administrator).
 */
function ConnectionStatus({ saved }: { saved: MetaConnectionView }) {
  const problems = [saved.lastError, saved.webhookError].filter((p): p is string => !!p)
  return (
    <div className="space-y-1">
      {saved.status === 'needs_attention' ? (
        <div role="status" className="space-y-1">
          {(problems.length ? problems : ['']).map((problem) => (
            <p key={problem} className="flex items-start gap-2 text-sm text-red-700">
              <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <span>Needs attention{problem ? `: ${problem}` : ''}</span>
            </p>
          ))}
        </div>
      ) : (
        <p role="status" className="flex items-start gap-2 text-sm text-slate-700">
          {/* A check only once something has synced: "Not synced yet" is no success. */}
          {saved.lastSyncAt ? (
            <CheckCircle2
              data-testid="sync-ok"
              className="mt-0.5 size-4 shrink-0 text-brand-700"
              aria-hidden="true"
            />
          ) : (
            <CircleDashed className="mt-0.5 size-4 shrink-0 text-slate-500" aria-hidden="true" />
          )}
          {saved.lastSyncAt ? `Last synced ${formatAgo(saved.lastSyncAt)}` : 'Not synced yet'}
        </p>
      )}
      {saved.webhookReady ? (
        <p className="flex items-start gap-2 text-sm text-slate-700">
          <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden="true" />
          Webhook active: new leads of page {saved.pageId} arrive by themselves
        </p>
      ) : saved.pageId && saved.pageAccessToken.set && !saved.webhookError ? (
        <p className="flex items-start gap-2 text-sm text-amber-800">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          Webhook not active yet: run Test Connection to verify the page and app secret
        </p>
      ) : null}
    </div>
  )
}

/** Settings → Integrations: the hospital's Meta lead-ads connection (secrets stay on the server). */
export function MetaConnectionCard() {
  const query = useMetaConnection()
  return (
    <Card>
      <CardHeader>
        <CardTitle>Meta lead ads (Facebook and Instagram)</CardTitle>
        <p className="text-sm text-slate-600">
          New leads from your lead forms arrive by themselves through the webhook; Sync Leads on the
          dashboard fetches any that were missed. Tokens are stored encrypted and never shown again.
        </p>
        {query.data ? (
          <ConnectionStatus saved={query.data} />
        ) : query.isPending ? (
          <Skeleton className="h-10 w-full max-w-sm" />
        ) : null}
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          // As tall as the form it stands for, so nothing below it jumps when the form arrives.
          <div
            className="min-h-[36rem] space-y-3 md:min-h-[30rem]"
            aria-label="Loading the Meta connection"
          >
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : query.isError ? (
          <div role="alert" className="space-y-2 text-sm text-red-700">
            <p>Failed to load the Meta connection.</p>
            <Button variant="outline" onClick={() => void query.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <ConnectionForm key={query.dataUpdatedAt} saved={query.data} />
        )}
      </CardContent>
    </Card>
  )
}
