import { toast as sonner } from 'sonner'
import { ApiError } from './api-client'

/** A button in a toast ('Open patient'). */
export interface ToastAction {
  label: string
  onClick: () => void
}

/**
 * The one client rule for refusals (ENGINEERING.md, "Refusals reach the person"): a 4xx answer's
 * `message` is what the person reads. Only a 5xx, a network failure or a body without our error
 * shape falls back to the generic text the caller gives.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
    return error.jsonMessage ?? fallback
  }
  return fallback
}

/** Spec toasts: a title, an optional description, default or destructive. */
export const toast = {
  success: (title: string, description?: string, action?: ToastAction) =>
    sonner.success(title, { description, action }),
  error: (title: string, description?: string) => sonner.error(title, { description }),
  info: (title: string, description?: string) => sonner(title, { description }),
  /** A failed request: the server's 4xx message, else `fallback` ("Please try again."). */
  failed: (title: string, error: unknown, fallback: string) =>
    sonner.error(title, { description: errorMessage(error, fallback) }),
}
