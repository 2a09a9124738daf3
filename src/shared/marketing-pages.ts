import { formatRupees } from './money'
import { plans } from './plans'

/** Head tags of the signed-out marketing pages: served in the HTML and kept in step on client navigation. */
export interface MarketingPage {
  path: '/' | '/pricing' | '/add-ons'
  title: string
  description: string
  /** sitemap.xml priority, 0 to 1. */
  priority: number
}

export const SITE_NAME = 'Arogya CRM'
/** 1200 x 630 share image in the client's public folder. */
export const OG_IMAGE_PATH = '/og-image.png'

const lowest = Math.min(...plans.flatMap((p) => (p.price ? [p.price.annualMonthly] : [])))

export const marketingPages: readonly MarketingPage[] = [
  {
    path: '/',
    title: 'Arogya CRM – Patient and lead management CRM for clinics and hospitals in India',
    description:
      'Capture leads from Facebook and Instagram ads, follow up on WhatsApp, SMS, email and calls, book appointments and bill in rupees. The AI-integrated CRM for Indian clinics and hospitals.',
    priority: 1,
  },
  {
    path: '/pricing',
    title: `Pricing – plans from ${formatRupees(lowest)} a month | Arogya CRM`,
    description:
      'Starter, Professional, Enterprise and Hospital Enterprise plans in rupees, with free trials of up to 60 days. Save 20% with annual billing. Compare limits, support and features.',
    priority: 0.9,
  },
  {
    path: '/add-ons',
    title: 'Professional add-ons and services | Arogya CRM',
    description:
      'Video editing, creative design, data migration, custom integrations, training, 24/7 support, SEO and lead generation for clinics and hospitals, with prices in rupees.',
    priority: 0.7,
  },
]

export function findMarketingPage(path: string): MarketingPage | undefined {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path
  return marketingPages.find((p) => p.path === clean)
}
