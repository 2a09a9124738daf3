import { fakeLead, startFakeGraph } from '../../support/fakes/meta-graph'
import { E2E_META_PAGE } from './meta-page'

/**
 * The fake Graph API for the e2e run (playwright.config.ts starts it before the app, whose
 * META_GRAPH_URL points here): one Facebook page with a lead form and three leads, the same
 * fake the integration tests use, which records requests of the wrong shape.
 */

const port = Number(process.env.E2E_GRAPH_PORT ?? 5179)
const graph = await startFakeGraph('v21.0', port)
graph.pages.set(E2E_META_PAGE.id, {
  ...E2E_META_PAGE,
  forms: [
    {
      id: '770011223344',
      name: 'Free Dental Check-up – Dec',
      leads: [
        fakeLead(
          {
            full_name: 'Harini Venkatesh',
            email: 'harini.v@example.in',
            phone_number: '+91 98860 41275',
            service_interest: 'Teeth whitening',
          },
          { campaign_name: 'Free Dental Check-up – Dec', platform: 'fb' },
        ),
        fakeLead(
          {
            full_name: 'Arjun Hegde',
            phone_number: '+91 99000 73512',
            message: 'Braces for my son',
          },
          { campaign_name: 'Braces EMI Offer', platform: 'ig' },
        ),
        fakeLead({ full_name: 'No Phone', phone_number: '12345' }, { platform: 'fb' }),
      ],
    },
  ],
})
process.on('SIGTERM', () => void graph.close().then(() => process.exit(0)))
console.log(`fake Graph API at ${graph.url}`)
