import { version } from '../../package.json'

/**
 * The release, from package.json's "version" (issue 40 item 24): GET /healthz answers it and
 * the account menu's About shows it. CHANGELOG.md names what each version changed.
 */
export const APP_VERSION: string = version
