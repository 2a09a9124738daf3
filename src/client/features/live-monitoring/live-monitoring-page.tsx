import { TZDate } from '@date-fns/tz'
import { useQueryClient } from '@tanstack/react-query'
import { format } from 'date-fns'
import { RefreshCw } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/client/components/ui/tabs'
import { useCan, useUser } from '@/client/lib/current-user'
import { DEFAULT_TIME_ZONE } from '@/shared/dates'
import { liveMonitoringKey, useLiveMonitoring } from './api/live-monitoring'
import { CallsReport } from './calls-report/calls-report'
import { ActivityFeed } from './components/activity-feed'
import { OverviewCards } from './components/overview-cards'
import { Performance } from './components/performance'
import { TeamStatus } from './components/team-status'
import { useLiveEvents, useSelfOnline } from './use-live-events'
import { useNow } from './use-now'

/** '3:05:12 PM' in the hospital's time zone. */
function clockTime(at: number, timeZone: string): string {
  return format(new TZDate(at, timeZone), 'h:mm:ss a')
}

/**
 * /live-monitoring (spec section 2): a refresh button, an auto-refresh toggle (every 30 s) and
 * the last-updated time; four cards; tabs Team Status, Live Activity, Performance and, for
 * admins, the calls report (issue 41). New activity
 * and presence changes arrive pushed on the shared event stream (use-live-events.ts).
 */
export function LiveMonitoringPage() {
  const [autoRefresh, setAutoRefresh] = useState(true)
  const queryClient = useQueryClient()
  const reads = useLiveMonitoring(autoRefresh)
  useLiveEvents(reads.streamDown)
  const now = useNow()
  const user = useUser().data
  const timeZone = user?.timeZone ?? DEFAULT_TIME_ZONE
  useSelfOnline(user?.id, reads.onlineUsers.data)
  const seesAll = useCan('live-monitoring:read_all')
  const all = [reads.overview, reads.onlineUsers, reads.activities, reads.dailySummary]
  const lastUpdated = Math.max(...all.map((q) => q.dataUpdatedAt))
  const refreshing = all.some((q) => q.isFetching)

  return (
    <div className="min-w-0 space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Live Monitoring</h1>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <div className="flex items-center gap-2 text-sm">
            <input
              id="live-auto-refresh"
              type="checkbox"
              role="switch"
              className="size-4 shrink-0"
              checked={autoRefresh}
              onChange={(e) => setAutoRefresh(e.target.checked)}
            />
            <label htmlFor="live-auto-refresh" className="font-medium text-slate-800">
              Auto-refresh (30 s)
            </label>
          </div>
          <Button
            variant="outline"
            size="sm"
            aria-busy={refreshing || undefined}
            onClick={() => {
              if (!refreshing) void queryClient.invalidateQueries({ queryKey: liveMonitoringKey })
            }}
          >
            <RefreshCw className={refreshing ? 'animate-spin' : undefined} aria-hidden="true" />
            Refresh
          </Button>
        </div>
      </div>
      <p className="-mt-3 text-sm text-slate-600">
        {lastUpdated > 0 ? `Last updated ${clockTime(lastUpdated, timeZone)}` : 'Loading…'}
        {reads.streamDown ? ' · Live updates are paused; checking every 30 seconds.' : null}
      </p>
      <OverviewCards query={reads.overview} />
      <Tabs defaultValue="team">
        <TabsList aria-label="Live monitoring views">
          <TabsTrigger value="team">Team Status</TabsTrigger>
          <TabsTrigger value="activity">Live Activity</TabsTrigger>
          <TabsTrigger value="performance">Performance</TabsTrigger>
          {seesAll ? <TabsTrigger value="calls">Calls report</TabsTrigger> : null}
        </TabsList>
        <TabsContent value="team">
          <TeamStatus query={reads.onlineUsers} now={now} timeZone={timeZone} />
        </TabsContent>
        <TabsContent value="activity">
          <ActivityFeed query={reads.activities} now={now} timeZone={timeZone} />
        </TabsContent>
        <TabsContent value="performance">
          <Performance query={reads.dailySummary} seesAll={seesAll} />
        </TabsContent>
        {seesAll ? (
          <TabsContent value="calls">
            <CallsReport now={now} timeZone={timeZone} />
          </TabsContent>
        ) : null}
      </Tabs>
    </div>
  )
}
