// The config keys of the tls and smtp check types (check-types.ts) that judge a TLS certificate: the
// name it must be for and SNI sends, whether its chain and name are verified, the CAs trusted instead of
// the system's, and how many days before its expiry the check goes down (net/checks/cert.ts).
import * as v from "valibot";

const HOST_NAME = /^[0-9A-Za-z.:_-]{1,253}$/;
export const ServerName = v.pipe(v.string(), v.regex(HOST_NAME, "Must be a host name or an IP address."));
/** What EHLO may name: a host name or an address literal ([192.0.2.1]). */
export const EHLO_NAME = /^(?:[0-9A-Za-z.-]{1,253}|\[[0-9A-Fa-f.:]{2,45}\])$/;
export const EhloName = v.pipe(v.string(), v.regex(EHLO_NAME, "Must be a host name or an [address]."));

export const TLS_CERT_RULES = {
  server_name: v.optional(v.nullable(ServerName)),
  verify_chain: v.optional(v.boolean()),
  verify_hostname: v.optional(v.boolean()),
  expiry_days: v.optional(v.pipe(v.number(), v.integer("Must be a whole number of days."), v.minValue(0), v.maxValue(365))),
  ca_pem: v.optional(
    v.nullable(v.pipe(v.string(), v.maxLength(65_536), v.includes("-----BEGIN CERTIFICATE-----", "Must hold PEM certificates."))),
  ),
} satisfies v.ObjectEntries;

export const TLS_CERT_DEFAULTS = { server_name: null, verify_chain: true, verify_hostname: true, expiry_days: 14, ca_pem: null } as const;
