/** Marketing copy of the signed-out site. Claims are quoted from spec section 1. */

export const claims = {
  trustedBy: 'Trusted by 1000+ professionals',
  stats: [
    { value: '300-500%', label: 'ROI in 6 months', text: '300-500% ROI in 6 months' },
    { value: '50%', label: 'faster response', text: '50% faster response' },
    { value: '40%', label: 'higher conversion', text: '40% higher conversion' },
    { value: '60%', label: 'more productivity', text: '60% more productivity' },
  ],
} as const

export type FeatureIcon =
  'leads' | 'patients' | 'appointments' | 'billing' | 'messaging' | 'analytics'

export interface Feature {
  icon: FeatureIcon
  title: string
  text: string
  help: string
}

export const features: readonly Feature[] = [
  {
    icon: 'leads',
    title: 'Lead Management',
    text: 'Every enquiry from Facebook, Instagram and Google Ads lands in one list with its source, priority and next follow-up.',
    help: 'Leads are scored high, medium or low and move from New to Contacted, Follow-up and Converted, so nobody is forgotten.',
  },
  {
    icon: 'patients',
    title: 'Patient Management',
    text: 'Complete patient records with history, allergies, insurance and ABHA number, searchable in a second.',
    help: 'Search by name, email or any part of a mobile number. Records are private to your hospital.',
  },
  {
    icon: 'appointments',
    title: 'Appointment Scheduling',
    text: 'Book, confirm and complete appointments, and cut no-shows with reminders on WhatsApp and SMS.',
    help: 'Each appointment moves from Scheduled to Confirmed and Completed; cancellations and no-shows are tracked too.',
  },
  {
    icon: 'billing',
    title: 'Billing & Claims',
    text: 'Invoices in rupees, payment tracking and insurance claims, with overdue bills flagged for you.',
    help: 'Invoices are pending, paid, overdue or cancelled. Mark one paid and your revenue figures update at once.',
  },
  {
    icon: 'messaging',
    title: 'Multi-channel Messaging',
    text: 'Reach patients on WhatsApp, SMS, email and voice from one screen, one at a time or in bulk.',
    help: 'Templates and bulk sends save your front desk hours every day. Every message is logged against the lead.',
  },
  {
    icon: 'analytics',
    title: 'Campaign Analytics',
    text: 'See cost per lead, conversion rate and revenue for every campaign, and put your budget where it works.',
    help: 'Compare campaigns side by side and see which ads bring patients who actually book.',
  },
]

export const trustBlurbs = [
  {
    title: 'Secure by design',
    text: 'Each hospital’s data is walled off at the database, access follows staff roles, and backups run automatically.',
  },
  {
    title: 'Built for India',
    text: 'Prices and bills in rupees, +91 mobile numbers, India Standard Time, ABHA numbers and WhatsApp-first follow-up.',
  },
  {
    title: 'People who answer',
    text: 'Our support team responds within 2-4 hours, and every plan starts with a free trial, so you can be sure before you pay.',
  },
] as const

export const footerLists = [
  {
    title: 'Product',
    items: [
      'Lead Management',
      'Patient Records',
      'Appointments',
      'Billing & Claims',
      'Campaign Analytics',
    ],
  },
  {
    title: 'Support',
    items: ['Help Centre', 'Training', 'Data Migration', 'System Status', 'Contact Us'],
  },
  {
    title: 'Company',
    items: ['About Us', 'Careers', 'Privacy Policy', 'Terms of Service', 'Security'],
  },
] as const
