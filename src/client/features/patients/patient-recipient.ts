/** Who the message dialog writes to, for a patient. */
export function patientRecipient(p: {
  id: string
  name: string
  phone: string
  email: string | null
}) {
  return { kind: 'patient' as const, id: p.id, name: p.name, phone: p.phone, email: p.email }
}
