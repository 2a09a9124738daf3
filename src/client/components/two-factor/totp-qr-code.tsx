import { useEffect, useState } from 'react'
import { Spinner } from '@/client/components/ui/spinner'

type QrState = { uri: string; src: string } | { uri: string; failed: true }

/** Renders an otpauth URI as a QR code image (the qrcode library loads only here). */
async function qrImage(uri: string): Promise<string> {
  const { default: qrcode } = await import('qrcode')
  const svg = await qrcode.toString(uri, {
    type: 'svg',
    margin: 2,
    errorCorrectionLevel: 'M',
    color: { dark: '#0f172a', light: '#ffffff' },
  })
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`
}

/** The QR code an authenticator app scans; a spinner while it is drawn. */
export function TotpQrCode({ uri }: { uri: string }) {
  const [state, setState] = useState<QrState | null>(null)

  useEffect(() => {
    let live = true
    qrImage(uri).then(
      (src) => live && setState({ uri, src }),
      () => live && setState({ uri, failed: true }),
    )
    return () => {
      live = false
    }
  }, [uri])

  const current = state?.uri === uri ? state : null
  return (
    <div className="flex size-48 shrink-0 items-center justify-center rounded-md border border-slate-200 bg-white">
      {current === null ? (
        <Spinner className="size-6" label="Drawing the QR code" />
      ) : 'src' in current ? (
        <img
          src={current.src}
          alt="QR code to scan with your authenticator app"
          width={184}
          height={184}
          className="size-46"
        />
      ) : (
        <p className="p-3 text-center text-sm text-slate-600">
          The QR code could not be drawn. Enter the key below instead.
        </p>
      )}
    </div>
  )
}
