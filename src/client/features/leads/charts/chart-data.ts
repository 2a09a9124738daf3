import { format } from 'date-fns'
import { formatCalendarDate } from '@/shared/dates'
import { type LeadSource, leadSources } from '@/shared/lead-labels'
import {
  type LeadFunnelStage,
  leadFunnelStageLabels,
  leadFunnelStages,
  type LeadTrends,
} from '@/shared/schemas/leads'

/** One bar of the per-day chart: the day's counts by source, its labels and total. */
export type DayRow = Record<LeadSource, number> & {
  date: string
  /** 'Mar 3': the axis tick. */
  label: string
  /** 'Mar 03, 2026' (the app's date format): the tooltip and the data table. */
  longLabel: string
  total: number
}

export interface FunnelRow {
  stage: LeadFunnelStage
  label: string
  count: number
  /** Whole percent of the first stage (new); 0 when there are no leads. */
  pct: number
}

/** A distinct, readable colour per source (on white; Tailwind 600 shades). */
export const sourceColors: Record<LeadSource, string> = {
  'meta-facebook': '#2563eb',
  'meta-instagram': '#db2777',
  'google-ads': '#d97706',
  referral: '#059669',
  manual: '#7c3aed',
  'walk-in': '#0891b2',
  'csv-import': '#475569',
  phone: '#4d7c0f',
}

/** The funnel's stages, brand teal darkening stage by stage (each at least 3:1 on white). */
export const stageColors: Record<LeadFunnelStage, string> = {
  new: '#0d9488',
  contacted: '#0f766e',
  followUp: '#115e59',
  converted: '#134e4a',
}

/** 'Feb 28' for an axis tick: a calendar day, so built from its parts, never shifted by a zone. */
function shortDay(date: string): string {
  const [y = 1970, m = 1, d = 1] = date.split('-').map(Number)
  return format(new Date(y, m - 1, d), 'MMM d')
}

/** The per-day chart's rows, oldest first, as the server sent the days. */
export function toDayRows(days: LeadTrends['days']): DayRow[] {
  return days.map(({ date, counts }) => {
    return {
      ...counts,
      date,
      label: shortDay(date),
      longLabel: formatCalendarDate(date),
      total: leadSources.reduce((sum, s) => sum + counts[s], 0),
    }
  })
}

/** Sources with at least one lead in the period, in the contract's order: the bars to draw. */
export function activeSources(days: LeadTrends['days']): LeadSource[] {
  return leadSources.filter((s) => days.some((d) => d.counts[s] > 0))
}

/** The funnel's rows in stage order, each with its share of the first stage. */
export function toFunnelRows(funnel: LeadTrends['funnel']): FunnelRow[] {
  const first = funnel.new
  return leadFunnelStages.map((stage) => ({
    stage,
    label: leadFunnelStageLabels[stage],
    count: funnel[stage],
    pct: first > 0 ? Math.round((funnel[stage] / first) * 100) : 0,
  }))
}
