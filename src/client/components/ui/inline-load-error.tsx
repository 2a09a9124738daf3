import { Button } from './button'

/** A failed load said in one line, with a retry: "Failed to load the figures. Try again". */
export function InlineLoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <p role="alert" className="flex flex-wrap items-center gap-2 text-sm text-red-700">
      {message}
      <Button variant="link" size="sm" className="h-auto p-0" onClick={onRetry}>
        Try again
      </Button>
    </p>
  )
}
