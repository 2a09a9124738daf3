import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { Field } from '@/client/components/ui/field'
import { Input } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import {
  type ChangePasswordInput,
  changePasswordInput,
  PASSWORD_CHANGED_MESSAGE,
} from '@/shared/schemas/account-security'
import { useChangePassword } from '../api/security-password'

type FieldName = keyof ChangePasswordInput

const fields: {
  name: FieldName
  id: string
  label: string
  autoComplete: string
  hint?: string
}[] = [
  {
    name: 'currentPassword',
    id: 'current-password',
    label: 'Current Password',
    autoComplete: 'current-password',
  },
  {
    name: 'newPassword',
    id: 'new-password',
    label: 'New Password',
    autoComplete: 'new-password',
    hint: 'At least 8 characters',
  },
  {
    name: 'confirmPassword',
    id: 'confirm-password',
    label: 'Confirm New Password',
    autoComplete: 'new-password',
  },
]

/**
 * Change Password (spec: current, new, confirm; Update Password). The same schema checks it
 * here and on the server; the server signs the user out on every other device.
 */
export function SecurityPasswordCard() {
  const change = useChangePassword()
  const form = useForm<ChangePasswordInput>({
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    resolver: zodResolver(changePasswordInput),
  })
  const errors = form.formState.errors

  const submit = form.handleSubmit(async (values) => {
    try {
      await change.mutateAsync(values)
      form.reset()
      toast.success('Password updated', PASSWORD_CHANGED_MESSAGE)
    } catch (error) {
      const issues = error instanceof ApiError ? error.fieldErrors : {}
      let placed = false
      for (const { name } of fields) {
        const message = issues[name]
        if (message) {
          form.setError(name, { type: 'server', message }, { shouldFocus: !placed })
          placed = true
        }
      }
      if (!placed) {
        form.setError('root', {
          type: 'server',
          message:
            error instanceof ApiError
              ? error.serverMessage
              : 'Could not reach the server. Check your connection and try again.',
        })
      }
    }
  })

  return (
    <Card>
      <CardHeader>
        <CardTitle>Change Password</CardTitle>
        <p className="text-sm text-slate-600">
          After the change you stay signed in here; every other device is signed out.
        </p>
      </CardHeader>
      <CardContent>
        <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
          {fields.map((f) => {
            const error = errors[f.name]?.message
            return (
              <Field
                key={f.name}
                id={f.id}
                label={f.label}
                error={error}
                {...(f.hint ? { hint: f.hint } : {})}
              >
                <Input
                  id={f.id}
                  type="password"
                  autoComplete={f.autoComplete}
                  aria-invalid={Boolean(error)}
                  aria-describedby={error ? `${f.id}-error` : undefined}
                  {...form.register(f.name)}
                />
              </Field>
            )
          })}
          {errors.root ? (
            <p role="alert" className="text-sm text-red-700">
              {errors.root.message}
            </p>
          ) : null}
          <Button type="submit" loading={change.isPending} loadingText="Updating...">
            Update Password
          </Button>
        </form>
      </CardContent>
    </Card>
  )
}
