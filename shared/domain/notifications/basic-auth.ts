// The HTTP Basic authorization header (RFC 7617, UTF-8 credentials), for the providers that sign in so
// (notifiers/twilio.ts, notifiers/alertmanager.ts). Runtime-neutral: btoa over the UTF-8 bytes.
export const basicAuth = (user: string, password: string): string =>
  `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${user}:${password}`)))}`;
