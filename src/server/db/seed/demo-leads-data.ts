/**
 * Word lists of the demo leads: what each kind of clinic is asked about, the ad campaigns
 * that bring the enquiries, and what staff and leads write to each other. `{first}`,
 * `{service}`, `{hospital}`, `{phone}` and `{day}` are filled in by leads.ts.
 */

export type Clinic = 'general' | 'dental'

export interface Service {
  name: string
  /** Asked about only by women (maternity, gynaecology). */
  women?: boolean
}

export const services: Record<Clinic, readonly Service[]> = {
  general: [
    { name: 'Cardiology consultation' },
    { name: 'Knee replacement surgery' },
    { name: 'Full body check-up' },
    { name: 'Maternity package', women: true },
    { name: 'Gynaecology consultation', women: true },
    { name: 'Diabetes care programme' },
    { name: 'Cataract surgery' },
    { name: 'Orthopaedic consultation' },
    { name: 'Physiotherapy' },
    { name: 'Senior citizen health package' },
    { name: 'Thyroid check-up' },
    { name: 'Kidney stone treatment' },
    { name: 'Hernia surgery' },
  ],
  dental: [
    { name: 'Root canal treatment' },
    { name: 'Braces' },
    { name: 'Clear aligners' },
    { name: 'Dental implants' },
    { name: 'Teeth whitening' },
    { name: 'Scaling and polishing' },
    { name: 'Wisdom tooth extraction' },
    { name: 'Dental check-up' },
    { name: 'Smile makeover' },
    { name: 'Dentures' },
    { name: 'Tooth-coloured fillings' },
    { name: 'Gum treatment' },
  ],
}

/** Meta ad campaigns (named '<name> – <Mon>' after the month they ran) and what they sell. */
export const metaCampaigns: Record<Clinic, readonly { name: string; services: string[] }[]> = {
  general: [
    {
      name: 'Free Health Check-up Camp',
      services: ['Full body check-up', 'Diabetes care programme', 'Thyroid check-up'],
    },
    {
      name: 'Knee Pain Clinic',
      services: ['Knee replacement surgery', 'Orthopaedic consultation', 'Physiotherapy'],
    },
    { name: 'Heart Health Week', services: ['Cardiology consultation', 'Full body check-up'] },
    {
      name: 'Maternity Package Offer',
      services: ['Maternity package', 'Gynaecology consultation'],
    },
    {
      name: 'Senior Citizen Health Package',
      services: ['Senior citizen health package', 'Cataract surgery'],
    },
  ],
  dental: [
    {
      name: 'Free Dental Check-up Camp',
      services: ['Dental check-up', 'Scaling and polishing', 'Tooth-coloured fillings'],
    },
    { name: 'Smile Makeover Offer', services: ['Teeth whitening', 'Smile makeover'] },
    { name: 'Braces & Aligners on EMI', services: ['Braces', 'Clear aligners'] },
    { name: 'Dental Implants Consultation', services: ['Dental implants', 'Dentures'] },
    {
      name: 'Painless Root Canal',
      services: ['Root canal treatment', 'Wisdom tooth extraction', 'Gum treatment'],
    },
  ],
}

/** What a CSV of leads came from (the import's campaign column), by clinic. */
export const csvCampaigns: Record<Clinic, readonly string[]> = {
  general: ['Corporate health camp sign-ups', 'Society health camp sign-ups'],
  dental: ['School dental camp sign-ups', 'Corporate dental camp sign-ups'],
}

export const leadNotes: readonly string[] = [
  'Prefers a call after 6 pm.',
  'Asked about EMI options.',
  'Has Star Health insurance; check cashless.',
  'Will come with family member; wants a Saturday slot.',
  'Speaks Marathi and Hindi; not comfortable in English.',
  'Asked for a woman doctor.',
  'Compared our price with another clinic nearby.',
  'Works night shifts; WhatsApp preferred over calls.',
  'Senior citizen; needs wheelchair access.',
  'Wants an estimate before deciding.',
]

export const walkInNotes: readonly string[] = [
  'Walked in at reception to ask about {service}.',
  'Came to the front desk with a relative who is our patient; asked about {service}.',
  'Picked up a brochure at reception; wants a call back.',
]

export const phoneNotes: readonly string[] = [
  'Phone enquiry: asked about {service} charges.',
  'Called the front desk about {service}; asked for timings.',
  'Phone enquiry after seeing our hoarding; interested in {service}.',
]

export const outboundCalls: readonly string[] = [
  'Called and explained the {service} package; will decide after talking to family.',
  'Spoke about {service}; shared consultation fee and OPD timings.',
  'Discussed {service}; asked to send the price list on WhatsApp.',
  'Called back as promised; still comparing options for {service}.',
]
export const unansweredCalls: readonly string[] = [
  'No answer; will try again in the evening.',
  'Busy; asked to call back tomorrow.',
  'Phone switched off.',
]

export const outboundWhatsApp: readonly string[] = [
  'Namaste {first}, thank you for your interest in {service} at {hospital}. When is a good time to call you?',
  'Hi {first}, sharing the details and price list for {service}. Reply YES to book a consultation.',
  'Hi {first}, just checking in about {service}. We have slots this week; shall I book one?',
]
export const outboundSms: readonly string[] = [
  '{hospital}: Dear {first}, we tried calling about your {service} enquiry. Call us on {phone} or reply CALL.',
  '{hospital}: Dear {first}, our team will call you today about {service}. Questions? Call {phone}.',
]
export const inboundReplies: readonly string[] = [
  'Yes, please call after 6 pm.',
  'What is the cost for {service}?',
  'Is there an EMI option?',
  'Can I come on Saturday morning?',
  'Does insurance cover this?',
  'Please share the location.',
  'Ok, thank you. I will discuss at home and tell you.',
]
export const firstEnquiries: readonly string[] = [
  'Hi, I saw your ad. What is the price for {service}?',
  'Hello, I want to know more about {service}.',
  'Is the offer still on? I am interested in {service}.',
]

export const bookingMessages: readonly string[] = [
  'Appointment booked for {day}. Please bring old reports, if any. – {hospital}',
  'Confirmed: your consultation for {service} is on {day}. Reply 1 to confirm, 2 to reschedule.',
]
export const bookingReplies: readonly string[] = ['1', 'Confirmed, thank you.', 'Ok, will come.']

export const rejections: readonly string[] = [
  'Not interested; only wanted to know the price.',
  'Chose a clinic closer to home.',
  'Wrong number; the person did not fill any form.',
  'Already treated elsewhere.',
  'Budget too high for now; may come back later.',
]
