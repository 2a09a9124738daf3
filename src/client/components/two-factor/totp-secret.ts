/** The base32 secret inside an otpauth:// URI (empty when the URI has none). */
export function secretOf(totpURI: string): string {
  const query = totpURI.split('?')[1] ?? ''
  return (new URLSearchParams(query).get('secret') ?? '').toUpperCase()
}

/** The secret in groups of four, easier to read and type ("JBSW Y3DP EHPK 3PXP"). */
export function groupSecret(secret: string): string {
  return (secret.match(/.{1,4}/g) ?? []).join(' ')
}
