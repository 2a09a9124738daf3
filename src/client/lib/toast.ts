import { toast as sonner } from 'sonner'

/** Spec toasts: a title, an optional description, default or destructive. */
export const toast = {
  success: (title: string, description?: string) => sonner.success(title, { description }),
  error: (title: string, description?: string) => sonner.error(title, { description }),
  info: (title: string, description?: string) => sonner(title, { description }),
}
