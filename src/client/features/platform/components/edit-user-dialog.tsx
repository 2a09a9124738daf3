import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { NativeSelect } from '@/client/components/ui/input'
import { toast } from '@/client/lib/toast'
import { type Role, roleLabels, staffRoles } from '@/shared/roles'
import { platformToasts, type PlatformUser } from '@/shared/schemas/platform'
import { useUpdateUser } from '../api/users'
import { serverMessage } from './form-issues'

/** Edit user: role (required) and active state. Deactivating signs the user out everywhere. */
export function EditUserDialog({
  user,
  onClose,
}: {
  user: PlatformUser | null
  onClose: () => void
}) {
  return (
    <Dialog
      open={user !== null}
      onOpenChange={(open) => !open && onClose()}
      title={user ? `Edit ${user.name}` : 'Edit user'}
      description={user?.email}
    >
      {user ? <EditUserForm key={user.id} user={user} onClose={onClose} /> : null}
    </Dialog>
  )
}

function EditUserForm({ user, onClose }: { user: PlatformUser; onClose: () => void }) {
  const [role, setRole] = useState<Role>(user.role)
  const [active, setActive] = useState(user.isActive)
  const update = useUpdateUser(user.id)
  const choices: readonly Role[] = user.hospitalId ? staffRoles : ['super_admin']

  function submit(e: React.FormEvent) {
    e.preventDefault()
    update.mutate(
      { role, isActive: active },
      {
        onSuccess: () => {
          toast.success(platformToasts.userUpdated)
          onClose()
        },
        onError: (error) => toast.error(platformToasts.userFailed, serverMessage(error)),
      },
    )
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      <Field id="user-role" label="Role" required>
        <NativeSelect
          id="user-role"
          value={role}
          onChange={(e) => setRole(e.target.value as Role)}
          required
        >
          {choices.map((r) => (
            <option key={r} value={r}>
              {roleLabels[r]}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          className="size-4 accent-brand-700"
          checked={active}
          onChange={(e) => setActive(e.target.checked)}
        />
        Active
      </label>
      {!active && user.isActive ? (
        <p className="text-sm text-slate-600">The user is signed out at once and cannot sign in.</p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" loading={update.isPending} loadingText="Saving">
          Save
        </Button>
      </div>
    </form>
  )
}
