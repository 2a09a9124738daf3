import { queryOptions, useQuery } from '@tanstack/react-query'
import { ApiError, api } from '@/client/lib/api-client'
import { useUser } from '@/client/lib/current-user'
import { DEFAULT_TIME_ZONE } from '@/shared/dates'

/** What billing reads of GET /api/hospital/settings (members may read it). */
interface BillingSettings {
  timeZone?: string
  stateCode?: string | null
}

async function getBillingSettings(): Promise<BillingSettings | null> {
  try {
    return await api.get<BillingSettings>('/api/hospital/settings')
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return null
    throw error
  }
}

/** The same key (and JSON) as the other screens that read the hospital's settings. */
export function getBillingSettingsQueryOptions() {
  return queryOptions({
    queryKey: ['/api/hospital/settings'] as const,
    queryFn: getBillingSettings,
  })
}

/**
 * The hospital's GST state (CGST + SGST within it, IGST across: the preview needs it) and its
 * time zone for dates. Never blocks the screen: until the settings arrive, or if they fail,
 * the zone falls back to the signed-in user's, then Asia/Kolkata, and the state to unknown.
 */
export function useHospitalBilling(): { stateCode: string | null; timeZone: string } {
  const settings = useQuery(getBillingSettingsQueryOptions()).data
  const userZone = useUser().data?.timeZone
  return {
    stateCode: settings?.stateCode ?? null,
    timeZone: settings?.timeZone || userZone || DEFAULT_TIME_ZONE,
  }
}
