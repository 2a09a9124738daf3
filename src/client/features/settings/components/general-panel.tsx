import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { GeneralFields } from './general-fields'
import { GeneralLeadManagement } from './general-lead-management'

/** Settings → General: the hospital and its lead management (the booking card sits below). */
export function GeneralPanel() {
  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle>Hospital</CardTitle>
        </CardHeader>
        <CardContent>
          <GeneralFields />
        </CardContent>
      </Card>
      <GeneralLeadManagement />
    </>
  )
}
