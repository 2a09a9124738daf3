import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import { roleLabels, staffRoles } from '@/shared/roles'
import {
  type InviteMemberInput,
  inviteMemberInput,
  type InviteMemberValues,
} from '@/shared/schemas/team'
import { useInviteMember } from '../api/team'

type Name = keyof InviteMemberInput

/** Invite member: email, name and role (the shared schema validates here and on the server). */
export function InviteDialog({
  open,
  onOpenChange,
}: {
  open: boolean
  onOpenChange: (o: boolean) => void
}) {
  const form = useForm<InviteMemberInput, unknown, InviteMemberValues>({
    defaultValues: { email: '', name: '', role: 'receptionist' },
    resolver: zodResolver(inviteMemberInput),
  })
  const invite = useInviteMember()
  const errors = form.formState.errors
  const a11y = (name: Name) => ({
    id: `invite-${name}`,
    'aria-invalid': Boolean(errors[name]),
    'aria-describedby': errors[name] ? `invite-${name}-error` : undefined,
  })

  const submit = form.handleSubmit(async (values) => {
    try {
      const sent = await invite.mutateAsync(values)
      if (sent.emailStatus === 'failed')
        toast.error('Invitation saved, but the email could not be sent', 'Use Resend to try again.')
      else
        toast.success(
          'Invitation sent',
          `${sent.invitation.name} will get an email with a link to join.`,
        )
      form.reset()
      onOpenChange(false)
    } catch (error) {
      if (error instanceof ApiError) {
        for (const [path, message] of Object.entries(error.fieldErrors)) {
          if (path === 'email' || path === 'name' || path === 'role')
            form.setError(path, { type: 'server', message })
        }
      }
      toast.error(
        'Failed to send invitation',
        error instanceof ApiError ? error.serverMessage : 'Please try again.',
      )
    }
  })

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Invite member"
      description="They get an email with a link to set their password. The link works once, for 7 days."
      className="max-w-lg"
    >
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
        <Field id="invite-name" label="Full name" required error={errors.name?.message}>
          <Input {...a11y('name')} {...form.register('name')} maxLength={120} autoComplete="off" />
        </Field>
        <Field id="invite-email" label="Email" required error={errors.email?.message}>
          <Input
            {...a11y('email')}
            {...form.register('email')}
            type="email"
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <Field id="invite-role" label="Role" required error={errors.role?.message}>
          <NativeSelect {...a11y('role')} {...form.register('role')}>
            {staffRoles.map((r) => (
              <option key={r} value={r}>
                {roleLabels[r]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" loading={invite.isPending} loadingText="Sending">
            Send invitation
          </Button>
        </div>
      </form>
    </Dialog>
  )
}
