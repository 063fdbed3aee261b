// The signed links of a status page subscription (docs/adr/0458-status-page-subscribers.md), signed as the
// acknowledge links are (docs/adr/0447): HMAC-SHA256 under a key HKDF-derived from the session signing key
// with a label of its own. The token is
//   <purpose>.<subscriber id>.<expiry, epoch s; 0: never>.<mac>
// purpose `c` confirms a pending subscription (expires with the confirmation), `u` unsubscribes (never
// expires: an old message's link must still work). Not guessable without the key; compared in constant time.
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { timingSafeEqualString } from "../../auth/constant-time.ts";
import { derivedKey } from "../../auth/derived-key.ts";
import { bytesToBase64Url, utf8Bytes } from "../../auth/encoding.ts";

const KEY_LABEL = "svc-control-plane status-page-subscription-link v1";
/** How long a confirmation link confirms; a pending subscription is pruned after it. */
export const CONFIRM_TTL_MS = 48 * 3600_000;
export const SUBSCRIPTION_TOKEN_PATTERN = /^([cu])\.(\d{1,10})\.(\d{1,12})\.[A-Za-z0-9_-]{43}$/;

export type SubscriptionPurpose = "confirm" | "unsubscribe";

export interface SubscriptionClaims {
  purpose: SubscriptionPurpose;
  subscriber_id: number;
  /** null: never expires (an unsubscribe link). */
  expires_at: Date | null;
}

const sign = (signingKey: Uint8Array, fields: string) =>
  `${fields}.${bytesToBase64Url(hmac(sha256, derivedKey(signingKey, KEY_LABEL), utf8Bytes(fields)))}`;

export function mintSubscriptionToken(signingKey: Uint8Array, claims: SubscriptionClaims): string {
  const exp = claims.expires_at ? Math.floor(claims.expires_at.getTime() / 1000) : 0;
  return sign(signingKey, `${claims.purpose === "confirm" ? "c" : "u"}.${claims.subscriber_id}.${exp}`);
}

/** The claims of a token this server signed for `purpose`, or null (malformed, forged, another purpose's). */
export function verifySubscriptionToken(signingKey: Uint8Array, token: string, purpose: SubscriptionPurpose): SubscriptionClaims | null {
  const m = SUBSCRIPTION_TOKEN_PATTERN.exec(token);
  if (!m) return null;
  if (!timingSafeEqualString(sign(signingKey, token.slice(0, token.lastIndexOf("."))), token)) return null;
  if ((m[1] === "c" ? "confirm" : "unsubscribe") !== purpose) return null;
  const exp = Number(m[3]);
  // A confirmation always expires; a token saying otherwise was not made for this purpose.
  if (purpose === "confirm" && exp === 0) return null;
  return { purpose, subscriber_id: Number(m[2]), expires_at: exp === 0 ? null : new Date(exp * 1000) };
}
