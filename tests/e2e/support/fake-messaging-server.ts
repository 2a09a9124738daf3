import { startFakeMsg91 } from '../../support/fakes/msg91'
import { startFakeSendGrid } from '../../support/fakes/sendgrid'
import { startFakeTwilio } from '../../support/fakes/twilio'
import { E2E_MSG91_KEY, E2E_SENDGRID_KEY, E2E_TWILIO, providerPorts } from './messaging-providers'

/**
 * The messaging providers of the e2e run (playwright.config.ts starts this before the app, whose
 * TWILIO_API_URL, SENDGRID_API_URL and MSG91_API_URL point here): the same fakes the integration
 * tests use, each checking requests against the provider's official contract. Twilio's
 * ListMessage lets a spec read back what reached it.
 */
const ports = providerPorts(Number(process.env.E2E_PORT ?? 5178))
const twilio = await startFakeTwilio(
  { [E2E_TWILIO.accountSid]: E2E_TWILIO.authToken },
  ports.twilio,
)
const sendgrid = await startFakeSendGrid([E2E_SENDGRID_KEY], ports.sendgrid)
const msg91 = await startFakeMsg91([E2E_MSG91_KEY], ports.msg91)
process.on('SIGTERM', () => {
  void Promise.all([twilio.close(), sendgrid.close(), msg91.close()]).then(() => process.exit(0))
})
console.log(`fake Twilio at ${twilio.url}, SendGrid at ${sendgrid.url}, MSG91 at ${msg91.url}`)
