/** What a step asks of the user (spec section 2, onboarding tour). */
export type TourAction = 'none' | 'click' | 'hover'

export interface TourStep {
  id: 'welcome' | 'stats' | 'sidebar' | 'patients' | 'appointments' | 'complete'
  title: string
  text: string
  /** CSS selector of the highlighted element; none for the first and last steps. */
  target?: string
  action: TourAction
}

export const actionHints: Record<Exclude<TourAction, 'none'>, string> = {
  click: 'Click the highlighted element to continue',
  hover: 'Hover over the highlighted area to explore',
}

/** The six steps, 0 to 5 (spec section 4). */
export const tourSteps: readonly TourStep[] = [
  {
    id: 'welcome',
    title: 'Welcome to Arogya CRM',
    text: 'This short tour shows you around the lead dashboard. It takes about 2 minutes.',
    action: 'none',
  },
  {
    id: 'stats',
    title: 'Dashboard Statistics',
    text: 'Your leads at a glance: total, new, converted and follow-ups due, with how each is trending.',
    target: '[data-tour="stats"]',
    action: 'hover',
  },
  {
    id: 'sidebar',
    title: 'Navigation Sidebar',
    text: 'Every part of the CRM is one click away from here: appointments, patients, billing and more.',
    target: '[data-tour="sidebar"]',
    action: 'hover',
  },
  {
    id: 'patients',
    title: 'Patients',
    text: 'Search and review patient records. A lead you convert becomes a patient here.',
    target: '[data-tour="patients-link"]',
    action: 'click',
  },
  {
    id: 'appointments',
    title: 'Appointments',
    text: 'Book and manage visits for patients and leads.',
    target: '[data-tour="appointments-link"]',
    action: 'click',
  },
  {
    id: 'complete',
    title: "You're all set!",
    text: 'Start working your leads. You can take this tour again at any time with Take the tour.',
    action: 'none',
  },
]
