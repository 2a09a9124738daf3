/** Campaign states and types with their labels (spec §3 Campaign, §4; issue 28). */

export const campaignStatuses = ['draft', 'active', 'paused', 'completed'] as const
export type CampaignStatus = (typeof campaignStatuses)[number]
export const campaignStatusLabels: Record<CampaignStatus, string> = {
  draft: 'Draft',
  active: 'Active',
  paused: 'Paused',
  completed: 'Completed',
}

export const campaignTypes = [
  'facebook',
  'instagram',
  'google_ads',
  'whatsapp',
  'sms',
  'email',
  'referral',
  'offline',
] as const
export type CampaignType = (typeof campaignTypes)[number]
export const campaignTypeLabels: Record<CampaignType, string> = {
  facebook: 'Facebook',
  instagram: 'Instagram',
  google_ads: 'Google Ads',
  whatsapp: 'WhatsApp',
  sms: 'SMS',
  email: 'Email',
  referral: 'Referral',
  offline: 'Offline',
}

/** The moves of spec §4: draft → active; active ⇄ paused; active or paused → completed. */
export const campaignActions = ['activate', 'pause', 'resume', 'complete'] as const
export type CampaignAction = (typeof campaignActions)[number]
export const campaignMoves: Record<
  CampaignAction,
  { from: readonly CampaignStatus[]; to: CampaignStatus }
> = {
  activate: { from: ['draft'], to: 'active' },
  pause: { from: ['active'], to: 'paused' },
  resume: { from: ['paused'], to: 'active' },
  complete: { from: ['active', 'paused'], to: 'completed' },
}
