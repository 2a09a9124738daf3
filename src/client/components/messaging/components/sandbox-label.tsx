import { FlaskConical } from 'lucide-react'
import { Link } from 'wouter'
import { paths } from '@/client/paths'

/**
 * "Sandbox": the message went to the Sandbox Outbox only, so nobody can mistake it for a real
 * send. Links to the outbox unless `plain`.
 */
export function SandboxLabel({ plain = false }: { plain?: boolean }) {
  const body = (
    <>
      <FlaskConical className="size-3" aria-hidden="true" />
      Sandbox
    </>
  )
  const className =
    'inline-flex items-center gap-1 rounded-full border border-amber-400 bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900'
  if (plain) return <span className={className}>{body}</span>
  return (
    <Link
      href={paths.sandboxOutbox}
      className={`${className} hover:bg-amber-100`}
      title="Not sent to anyone: see the Sandbox Outbox"
    >
      {body}
    </Link>
  )
}
