/**
 * Why a message failed, in words a receptionist understands (issue 25), from the provider's
 * error code in a status callback. Unknown codes keep the code for support.
 */

/** The WhatsApp 24-hour window (the contract's OUTSIDE_WINDOW text). */
export const OUTSIDE_WINDOW_REASON =
  'No WhatsApp message from this contact in the last 24 hours: send an approved template instead.'

/** Twilio 21610 and the like: the person replied STOP. */
export const OPTED_OUT_REASON = 'This contact has opted out of these messages.'

const twilioReasons: Record<string, string> = {
  '21610': OPTED_OUT_REASON,
  '63016': OUTSIDE_WINDOW_REASON,
  '21211': 'The phone number is not valid.',
  '21614': 'This number cannot receive text messages (not a mobile).',
  '30003': 'The phone was switched off or out of coverage.',
  '30004': 'The recipient has blocked these messages.',
  '30005': 'This number does not exist or is no longer in service.',
  '30006': 'This number is a landline or cannot receive text messages.',
  '30007': 'The mobile network filtered this message as spam.',
  '30008': 'The mobile network could not deliver this message.',
  '63003': 'This number is not on WhatsApp.',
}

const metaReasons: Record<string, string> = {
  '131047': OUTSIDE_WINDOW_REASON,
  '131026': 'This number is not on WhatsApp or cannot receive the message.',
  '131049': 'WhatsApp did not deliver this marketing message (limit per person reached).',
  '131050': OPTED_OUT_REASON,
  '131051': 'This message type is not supported by WhatsApp.',
  '130472': 'WhatsApp did not deliver this message (the number is part of an experiment).',
}

/** Twilio ErrorCode → reason (null code: a generic one). */
export function twilioFailureReason(code: string | undefined): string {
  if (!code) return 'The provider could not deliver this message.'
  return twilioReasons[code] ?? `The provider could not deliver this message (error ${code}).`
}

/** WhatsApp Cloud API errors[].code → reason. */
export function metaFailureReason(code: string | undefined): string {
  if (!code) return 'WhatsApp could not deliver this message.'
  return metaReasons[code] ?? `WhatsApp could not deliver this message (error ${code}).`
}

/** Twilio codes that mean the person opted out (recorded as a consent record). */
export const TWILIO_OPTED_OUT = '21610'
/** Meta: the person stopped marketing messages from this business. */
export const META_OPTED_OUT = '131050'
