import type { FaqCategory } from './schemas/faqs'

/**
 * The 8 pre-built FAQs (spec section 2, FAQ Management: adding a patient, scheduling, lead
 * import from the social-media service, invoices, payment methods, backups, security, team
 * members). They are how-tos for the clinic's staff, so 'Add All' adds them staff-only
 * (isPublic false): they never appear on the public FAQ page unless an admin makes one public.
 * Each answer names the screens and buttons as they are in the app (issue 40 item 9); the
 * 'Get Started with Pre-built FAQs' card shows the first 3. 'Add All' inserts them once per
 * hospital (keyed by `key`).
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
      'Open Patients and click New Patient, or choose Manual Entry in the menu: both open the Manual Patient Entry form.\n\n1. Enter the full name and the phone number (both required).\n2. Add what you know: email, gender, date of birth, address, emergency contact, medical history, allergies, insurance and ABHA number.\n3. Click Add Patient to System: the patient gets the next patient number and appears in Patients at once.\n\nIf the phone number already belongs to another patient, a warning under the Phone field names them. Check it is not the same person; families often share a phone, so you can still save.',
    category: 'general',
  },
  {
    key: 'schedule-appointment',
    question: 'How do I schedule an appointment?',
    answer:
      'Go to Appointments and click New Appointment. Choose the patient, the doctor, the service type, the date and a time, then click Schedule Appointment.\n\n- When appointment reminders are set in Settings → General, the patient gets a reminder before the visit by WhatsApp, SMS or email, unless they opted out of messages.\n- Patients can also book themselves on your online booking page (Settings → General shows its link).\n- To change the time or doctor, click Edit/Reschedule on the appointment; to cancel, click Cancel and give a reason if you like.',
    category: 'features',
  },
  {
    key: 'lead-import',
    question: 'How are leads from Facebook and Instagram imported?',
    answer:
      'An admin connects your Meta lead ads (Facebook and Instagram) in Settings → Integrations. New leads from your lead forms then arrive in the Lead Management Dashboard by themselves; Sync Leads on the dashboard fetches any that were missed.\n\n- You can also bring in a CSV file from another tool with Import CSV on the dashboard.\n- A phone number that is already a lead is merged into that lead, not added twice.\n- If leads stop arriving, check the Meta card in Settings → Integrations: it says what needs attention.',
    category: 'technical',
  },
  {
    key: 'invoices',
    question: 'How do I create and send an invoice?',
    answer:
      'Open Billing and click New Invoice. Search for the patient, add the services (pick one from the catalogue to fill its name, SAC code, price and GST rate), set the due date and click Create Invoice.\n\n1. Click Download PDF on the invoice to print it or send it to the patient.\n2. When the patient pays, click Mark Paid and choose the payment method.\n\nAn invoice cannot be edited. If something was wrong, cancel it while it is pending or overdue and create a new one.',
    category: 'billing',
  },
  {
    key: 'payment-methods',
    question: 'Which payment methods can patients use?',
    answer:
      'Mark Paid records a payment made by:\n\n- Cash\n- UPI (when your UPI ID is set, the invoice PDF carries a QR code to pay it)\n- Card\n- Bank transfer\n- Insurance\n\nPart payments are allowed: enter the amount received, and the invoice shows the balance until it is paid in full.',
    category: 'billing',
  },
  {
    key: 'backups',
    question: 'How is our data backed up?',
    answer:
      'Automatic backups are on by default and kept for 30 days; an admin can change both in Settings → Data.\n\n- On Backup Settings an admin adds backup configurations (to this server or to Google Drive), each on its own schedule, and runs one at once with Run Now.\n- Export Data in Settings → Data downloads all your data as a zip of CSV files.',
    category: 'technical',
  },
  {
    key: 'security',
    question: 'Is patient data kept secure and private?',
    answer:
      "Each clinic's data is kept apart from every other clinic's, and changes are recorded in the audit trail.\n\n- Turn on two-factor authentication for your account in Settings → Security.\n- An admin can require it for every member in Settings → Security.\n- Under India's Digital Personal Data Protection Act, 2023, a patient can ask for a copy of their data or for it to be erased: an admin does either from the patient's details.",
    category: 'general',
  },
  {
    key: 'team-members',
    question: 'How do I add team members and set their roles?',
    answer:
      'An admin opens Admin and clicks Invite member, then enters the email, name and role. The person gets an email with a link to set their password; the link works once, for 7 days.\n\n- Admin: everything, including settings, the team, backups and exports\n- Doctor and Nurse: patients, leads and appointments (invoices read only)\n- Receptionist: patients, leads, appointments, billing and FAQs\n- Viewer: reads only\n\nAn admin can change a role, suspend or remove a member at any time; how many members you can have depends on your plan.',
    category: 'features',
  },
]
