import { Badge } from '@/client/components/ui/badge'
import { type Gender, genderLabels } from '@/shared/patient-labels'

const variants = {
  male: 'blue',
  female: 'pink',
  other: 'purple',
  prefer_not_to_say: 'secondary',
} as const

export function GenderBadge({ gender }: { gender: Gender | null }) {
  if (!gender) return null
  return <Badge variant={variants[gender]}>{genderLabels[gender]}</Badge>
}
