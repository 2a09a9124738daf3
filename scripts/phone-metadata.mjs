// Writes src/shared/phone-metadata-in.json: libphonenumber's `min` metadata for India alone
// (about 1 KB gzip, not the 20 KB of every country), so list screens format Indian numbers with
// the library itself at once (src/shared/phone-india.ts). Run it after updating libphonenumber-js;
// phone-india.test.ts fails until then.
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'

const all = createRequire(import.meta.url)('libphonenumber-js/metadata.min.json')
const india = {
  version: all.version,
  country_calling_codes: { 91: all.country_calling_codes['91'] },
  countries: { IN: all.countries.IN },
  nonGeographic: {},
}
writeFileSync(
  new URL('../src/shared/phone-metadata-in.json', import.meta.url),
  `${JSON.stringify(india)}\n`,
)
