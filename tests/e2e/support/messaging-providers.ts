/**
 * The providers' accounts of the e2e run's local fakes (fake-messaging-server.ts), shared by the
 * fakes and the specs that point a hospital's Settings → Integrations at them.
 */
export const E2E_TWILIO = {
  accountSid: 'AC5ef8732a3c49700934481addd5ce1659',
  authToken: 'e2e-twilio-token-3f9a1c',
  from: '+14155550100',
}
export const E2E_SENDGRID_KEY = 'SG.e2e-key.4b7d2e9f1a6c'
export const E2E_MSG91_KEY = 'e2e-msg91-authkey-77aa'

/** Each fake's port, after the app's and the Graph fake's (playwright.config.ts). */
export function providerPorts(appPort: number) {
  return { twilio: appPort + 2, sendgrid: appPort + 3, msg91: appPort + 4 }
}
