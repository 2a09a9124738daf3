/** Header through which we pass the client's address to better-auth (set by us, never trusted from clients). */
export const CLIENT_IP_HEADER = 'x-arogya-client-ip'
