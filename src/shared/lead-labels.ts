/**
 * Lead states, priorities and sources with their labels (spec §3 Lead, §4 lead states; issue
 * 8), shared by the server and the client. schemas/leads.ts re-exports them.
 */

export const leadStatuses = ['new', 'contacted', 'follow-up', 'converted', 'rejected'] as const
export type LeadStatus = (typeof leadStatuses)[number]
export const leadStatusLabels: Record<LeadStatus, string> = {
  new: 'New',
  contacted: 'Contacted',
  'follow-up': 'Follow-up',
  converted: 'Converted',
  rejected: 'Rejected',
}

export const leadPriorities = ['high', 'medium', 'low'] as const
export type LeadPriority = (typeof leadPriorities)[number]
export const leadPriorityLabels: Record<LeadPriority, string> = {
  high: 'High',
  medium: 'Medium',
  low: 'Low',
}

/** The spec's four sources, plus the entry paths issue 8 adds (manual, walk-in, CSV import), and
 * issue 41's phone call (an unknown number that called the hospital). */
export const leadSources = [
  'meta-facebook',
  'meta-instagram',
  'google-ads',
  'referral',
  'manual',
  'walk-in',
  'csv-import',
  'phone',
] as const
export type LeadSource = (typeof leadSources)[number]
export const leadSourceLabels: Record<LeadSource, string> = {
  'meta-facebook': 'Facebook',
  'meta-instagram': 'Instagram',
  'google-ads': 'Google Ads',
  referral: 'Referral',
  manual: 'Phone enquiry',
  'walk-in': 'Walk-in',
  'csv-import': 'CSV import',
  phone: 'Phone call',
}
