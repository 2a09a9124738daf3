/**
 * Subscription plans and add-on services, in whole rupees (spec section 9, "Plans" and
 * "Add-on prices"). The one source for the landing pricing section, /pricing, /add-ons
 * and the platform revenue figures.
 */

export const billingCycles = ['monthly', 'annual'] as const
export type BillingCycle = (typeof billingCycles)[number]

/** How annual billing is advertised (spec section 9). */
export const ANNUAL_SAVING_BADGE = 'Save 20%'
/** Support contact response time (spec section 9). */
export const SUPPORT_RESPONSE_TIME = '2-4 hours'

export const planIds = [
  'starter',
  'professional',
  'enterprise',
  'hospital_enterprise',
  'custom_enterprise',
] as const
export type PlanId = (typeof planIds)[number]

export interface PlanPrice {
  /** Billed monthly, per month. */
  monthly: number
  /** Per month when billed annually. */
  annualMonthly: number
  /** Saving per year with annual billing. */
  annualSaving: number
  /** The struck-out list price per month. */
  list: number
}

export interface Plan {
  id: PlanId
  name: string
  /** Who the plan is for, one line. */
  summary: string
  ribbon: 'Most Popular' | 'Best Value' | null
  /** null: priced by quote. */
  price: PlanPrice | null
  /** null: unlimited. */
  maxUsers: number | null
  maxPatients: number | null
  trialDays: number | null
  /** Everything the card lists, limits first. */
  features: string[]
}

export const plans: readonly Plan[] = [
  {
    id: 'starter',
    name: 'Starter',
    summary: 'For single-doctor clinics getting organised',
    ribbon: null,
    price: { monthly: 2999, annualMonthly: 2399, annualSaving: 7200, list: 4999 },
    maxUsers: 5,
    maxPatients: 500,
    trialDays: 14,
    features: [
      'Up to 5 users',
      'Up to 500 patients',
      '14-day free trial',
      'Email support (24hr response)',
      'Daily backup',
      '99% uptime',
    ],
  },
  {
    id: 'professional',
    name: 'Professional',
    summary: 'For growing clinics running ad campaigns',
    ribbon: 'Most Popular',
    price: { monthly: 7999, annualMonthly: 6399, annualSaving: 19200, list: 12999 },
    maxUsers: 20,
    maxPatients: 2000,
    trialDays: 30,
    features: [
      'Up to 20 users',
      'Up to 2,000 patients',
      '30-day free trial',
      'Hourly backup',
      'Phone support (8hr response)',
      'Manual patient entry',
      'FAQ management',
    ],
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    summary: 'For multi-speciality centres with a call team',
    ribbon: 'Best Value',
    price: { monthly: 15999, annualMonthly: 12799, annualSaving: 38400, list: 24999 },
    maxUsers: 50,
    maxPatients: 10000,
    trialDays: 60,
    features: [
      'Up to 50 users',
      'Up to 10,000 patients',
      '60-day free trial',
      'Priority support (2hr response)',
      'Lead generation services',
      'Live monitoring dashboard',
      'Support ticket system',
      'Attachments up to 50MB',
    ],
  },
  {
    id: 'hospital_enterprise',
    name: 'Hospital Enterprise',
    summary: 'For hospitals with many departments',
    ribbon: null,
    price: { monthly: 29999, annualMonthly: 23999, annualSaving: 72000, list: 45999 },
    maxUsers: null,
    maxPatients: null,
    trialDays: null,
    features: [
      'Unlimited users',
      'Unlimited patients',
      '24/7 success manager',
      '50+ role permissions',
    ],
  },
  {
    id: 'custom_enterprise',
    name: 'Custom Enterprise',
    summary: 'For hospital chains and groups',
    ribbon: null,
    price: null,
    maxUsers: null,
    maxPatients: null,
    trialDays: null,
    features: [
      'Custom pricing',
      'Everything in Hospital Enterprise',
      'Terms shaped around your hospitals',
    ],
  },
]

export function findPlan(id: string): Plan | undefined {
  return plans.find((p) => p.id === id)
}

/** What a hospital on this plan pays per month in rupees; null when priced by quote or unknown. */
export function planMonthlyRupees(id: string, cycle: BillingCycle = 'monthly'): number | null {
  const price = findPlan(id)?.price
  if (!price) return null
  return cycle === 'annual' ? price.annualMonthly : price.monthly
}

export interface AddOn {
  id: string
  name: string
  /** Rupees. */
  price: number
  /** 'per video', 'per month'...; null for a one-time price. */
  unit: string | null
  /** The price is a starting point ('from ₹9,999'). */
  from: boolean
  description: string
}

export interface AddOnCategory {
  id: string
  name: 'Marketing & Creative' | 'Technical' | 'Training & Support' | 'Growth Acceleration'
  summary: string
  addOns: AddOn[]
}

const addOn = (
  id: string,
  name: string,
  price: number,
  unit: string | null,
  description: string,
  from = false,
): AddOn => ({
  id,
  name,
  price,
  unit,
  from,
  description,
})

export const addOnCategories: readonly AddOnCategory[] = [
  {
    id: 'marketing-creative',
    name: 'Marketing & Creative',
    summary: 'Ads and content that bring patients to your door',
    addOns: [
      addOn(
        'video-editing',
        'Video editing',
        999,
        'per video',
        'Reels and ad videos cut for Instagram, Facebook and YouTube.',
      ),
      addOn(
        'creative-design',
        'Creative design',
        499,
        'per design',
        'Ad creatives, posters and social posts in your clinic’s colours.',
      ),
      addOn(
        'content-writing',
        'Content writing',
        299,
        'per article',
        'Health articles and captions your patients can trust.',
      ),
      addOn(
        'photography',
        'Photography',
        2999,
        'per session',
        'Professional photos of your doctors, team and facility.',
      ),
    ],
  },
  {
    id: 'technical',
    name: 'Technical',
    summary: 'Set-up, integrations and apps by our engineers',
    addOns: [
      addOn(
        'data-migration',
        'Data migration',
        4999,
        null,
        'Move patients and history from spreadsheets or your old software.',
      ),
      addOn(
        'custom-integrations',
        'Custom integrations',
        9999,
        null,
        'Connect your lab, pharmacy or HIS systems.',
        true,
      ),
      addOn('mobile-app', 'Mobile app', 49999, null, 'A branded patient app for Android and iOS.'),
      addOn(
        'analytics-setup',
        'Analytics setup',
        7999,
        null,
        'Dashboards and conversion tracking for your campaigns.',
      ),
    ],
  },
  {
    id: 'training-support',
    name: 'Training & Support',
    summary: 'Help your team get the most out of Arogya CRM',
    addOns: [
      addOn(
        'advanced-training',
        'Advanced training',
        999,
        'per session',
        'Hands-on sessions for front desk, doctors and managers.',
      ),
      addOn(
        'consulting',
        'Consulting',
        2999,
        'per day',
        'Process design for lead handling and patient follow-up.',
      ),
      addOn(
        'premium-support',
        '24/7 premium support',
        1999,
        'per month',
        'Round-the-clock phone and WhatsApp support.',
      ),
      addOn(
        'compliance-audit',
        'Compliance audit',
        9999,
        null,
        'A review of data protection and patient consent practice.',
      ),
    ],
  },
  {
    id: 'growth-acceleration',
    name: 'Growth Acceleration',
    summary: 'More enquiries, better reviews, higher ranking',
    addOns: [
      addOn(
        'lead-generation-boost',
        'Lead generation boost',
        4999,
        'per month',
        'Managed ad campaigns that fill your lead pipeline.',
      ),
      addOn(
        'seo',
        'SEO',
        2999,
        'per month',
        'Rank on Google for the treatments you offer in your city.',
      ),
      addOn(
        'reputation-management',
        'Reputation management',
        1999,
        'per month',
        'Collect and answer Google reviews from happy patients.',
      ),
    ],
  },
]
