import type { FaqCategory } from './schemas/faqs'

/**
 * The 8 pre-built FAQs (spec section 2, FAQ Management: adding a patient, scheduling, lead
 * import from the social-media service, invoices, payment methods, backups, security, team
 * members), written for the staff of an Indian clinic. 'Add All' inserts them once per
 * hospital (keyed by `key`); the 'Get Started with Pre-built FAQs' card shows the first 3.
 */
export interface FaqSuggestion {
  key: string
  question: string
  answer: string
  category: FaqCategory
}

export const faqSuggestions: readonly FaqSuggestion[] = [
  {
    key: 'add-patient',
    question: 'How do I add a new patient?',
    answer:
      'Open Patients and click Add Patient, or use Manual Entry for a walk-in at the front desk.\n\n1. Enter the full name and 10-digit mobile number (both required).\n2. Add age or date of birth, gender, address and ABHA number if the patient has one.\n3. Click Save: the patient gets the next patient number and appears in the list at once.\n\nIf the mobile number already belongs to a patient, you are offered that record instead of a duplicate.',
    category: 'general',
  },
  {
    key: 'schedule-appointment',
    question: 'How do I schedule an appointment?',
    answer:
      'Go to Appointments and click New Appointment. Choose the patient, the doctor, the service and a free time slot, then save.\n\n- The patient gets a confirmation and a reminder by SMS or WhatsApp, if they agreed to messages.\n- Patients can also book themselves on your online booking page.\n- To reschedule, open the appointment and pick a new slot; to cancel, choose Cancel and give a reason.',
    category: 'features',
  },
  {
    key: 'lead-import',
    question: 'How are leads from Facebook and Instagram imported?',
    answer:
      'Connect your Meta (Facebook and Instagram) lead ads in Settings → Integrations. New form fills then arrive in Leads within a minute, with the campaign and form they came from.\n\n- You can also import a CSV file exported from another tool: Leads → Import.\n- Duplicate mobile numbers are merged, not added twice.\n- If leads stop arriving, check that the Meta connection is still active in Settings.',
    category: 'technical',
  },
  {
    key: 'invoices',
    question: 'How do I create and send an invoice?',
    answer:
      'Open Billing & Invoices and click New Invoice. Pick the patient, add services from your catalogue (the price and GST fill in), and save.\n\n1. Download the PDF with your GSTIN, or share it with the patient on WhatsApp or email.\n2. When the patient pays, click Mark Paid and choose the payment method.\n\nAn invoice cannot be edited once paid; cancel it and create a new one if something was wrong.',
    category: 'billing',
  },
  {
    key: 'payment-methods',
    question: 'Which payment methods can patients use?',
    answer:
      'You can record payments made by:\n\n- Cash\n- UPI (Google Pay, PhonePe, Paytm or any UPI app; your UPI ID is printed on the invoice)\n- Debit or credit card\n- Net banking\n- Cheque\n- Insurance or TPA settlement\n\nPart payments are allowed: the invoice shows the balance due until it is paid in full.',
    category: 'billing',
  },
  {
    key: 'backups',
    question: 'How is our data backed up?',
    answer:
      'Automatic backups are on by default and kept for 30 days. An admin can change the schedule in Backup Settings, run a backup at once with Run Now, or add a Google Drive folder as a second copy.\n\nYou can also download all your data any time from Settings → Data.',
    category: 'technical',
  },
  {
    key: 'security',
    question: 'Is patient data kept secure and private?',
    answer:
      "Yes. Each clinic's data is kept separate from every other clinic's, all traffic is encrypted, and every change is recorded in the audit trail.\n\n- Turn on two-factor authentication for your account in Settings → Security.\n- Admins can require it for every staff member.\n- We follow India's Digital Personal Data Protection Act, 2023: patients can ask for their data or for it to be erased.",
    category: 'general',
  },
  {
    key: 'team-members',
    question: 'How do I add team members and set their roles?',
    answer:
      'Admins open Admin → Team and click Invite Member. Enter the name, email and role, and the person receives an email to set their password.\n\n- Admin: everything, including settings and billing\n- Doctor and Nurse: patients, leads and appointments\n- Receptionist: patients, appointments and billing\n- Viewer: read only\n\nYou can change a role or suspend an account at any time; the number of users depends on your plan.',
    category: 'features',
  },
]
