// TLS pins of the agent link (docs/agents.md, TLS pinning; docs/adr/0428): a pin is the base64 SHA-256
// of a certificate's SubjectPublicKeyInfo (DER), the form `openssl x509 -pubkey -noout | openssl pkey
// -pubin -outform der | openssl dgst -sha256 -binary | base64` prints and the agent's `tls_pin` takes.
// Both ends use this file: the agent to check the server's leaf, the server to pin a stored certificate.
import { sha256 } from "@noble/hashes/sha2.js";

/** 32 bytes in base64: 43 characters and one `=`. */
export const TLS_PIN_PATTERN = /^[A-Za-z0-9+/]{43}=$/;
/**
 * self_signed: the pin alone vouches for the server (its certificate need not chain to a public CA);
 * public: the certificate must chain to a CA the agent trusts, and match the pin too.
 */
export const TLS_PIN_MODES = ["public", "self_signed"] as const;
export type TlsPinMode = (typeof TLS_PIN_MODES)[number];
/** What an agent says in hello `tls_pin_kind`: a pin's mode, or none (https trusted through public CAs alone). */
export const TLS_PIN_KINDS = ["none", ...TLS_PIN_MODES] as const;
/** The most pins an agent holds at once (the current one, a rotation's successor, room to spare). */
export const MAX_TLS_PINS = 4;

export function isTlsPin(value: unknown): value is string {
  return typeof value === "string" && TLS_PIN_PATTERN.test(value);
}

/** The pin of a SubjectPublicKeyInfo in DER. */
export function spkiPin(spkiDer: Uint8Array): string {
  let binary = "";
  for (const b of sha256(spkiDer)) binary += String.fromCharCode(b);
  return btoa(binary);
}
