import { queryOptions, useQuery } from '@tanstack/react-query'
import { ApiError, api } from '@/client/lib/api-client'
import { useUser } from '@/client/lib/current-user'
import { DEFAULT_TIME_ZONE } from '@/shared/dates'
import { defaultWorkingHours, type WorkingHours } from '@/shared/scheduling'

/** What the appointments screens read of GET /api/hospital/settings. */
interface ScheduleSettings {
  timeZone?: string
  workingHours?: WorkingHours
}

/** The hospital's settings, or null where the server has none to give (404). */
async function getScheduleSettings(): Promise<ScheduleSettings | null> {
  try {
    return await api.get<ScheduleSettings>('/api/hospital/settings')
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null
    throw error
  }
}

export function getScheduleSettingsQueryOptions() {
  return queryOptions({
    queryKey: ['/api/hospital/settings'] as const,
    queryFn: getScheduleSettings,
  })
}

export interface HospitalSchedule {
  timeZone: string
  workingHours: WorkingHours
}

/**
 * The hospital's time zone and working hours: from its settings, else the zone the signed-in
 * user carries, else Asia/Kolkata and 09:00–20:00 with Sunday closed. Never blocks a screen:
 * until the settings arrive (or if they fail) the fallbacks hold.
 */
export function useHospitalSchedule(): HospitalSchedule {
  const settings = useQuery(getScheduleSettingsQueryOptions()).data
  const userZone = useUser().data?.timeZone
  return {
    timeZone: settings?.timeZone || userZone || DEFAULT_TIME_ZONE,
    workingHours: settings?.workingHours ?? defaultWorkingHours,
  }
}
