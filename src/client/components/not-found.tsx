import { Link } from 'wouter'
import { useDocumentTitle } from '@/client/lib/use-document-title'
import { paths } from '@/client/paths'

/** Any path the app has no page for (the server answers it with HTTP 404 too). */
export function NotFound() {
  useDocumentTitle('Page not found')
  return (
    <div className="flex min-h-[60vh] min-w-0 flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-3xl font-bold">404 Page Not Found</h1>
      <p className="text-slate-600">The page you are looking for does not exist or has moved.</p>
      <Link href={paths.home} className="font-medium text-brand-700 underline">
        Go to the home page
      </Link>
    </div>
  )
}
