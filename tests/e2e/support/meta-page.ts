/** The Facebook page the e2e run's fake Graph API serves (fake-graph-server.ts). */
export const E2E_META_PAGE = {
  id: '104857600123456',
  name: 'Smile Dental Clinic Bengaluru',
  token: `EAAG${'e2e'.repeat(12)}Tk42`,
  appSecret: '0123456789abcdef0123456789abS3c9',
}
