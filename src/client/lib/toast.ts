import { toast as sonner } from 'sonner'

/** A button in a toast ('Open patient'). */
export interface ToastAction {
  label: string
  onClick: () => void
}

/** Spec toasts: a title, an optional description, default or destructive. */
export const toast = {
  success: (title: string, description?: string, action?: ToastAction) =>
    sonner.success(title, { description, action }),
  error: (title: string, description?: string) => sonner.error(title, { description }),
  info: (title: string, description?: string) => sonner(title, { description }),
}
