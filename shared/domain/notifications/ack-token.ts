// The signed acknowledgement link's token (docs/adr/0447-acknowledgement.md): who holds a delivered message
// may acknowledge its incident once, for a day at most. The token is
//   <incident id>.<expiry, epoch s>.<sink id>.<nonce>.<mac>
// with mac = HMAC-SHA256(k, the four fields as written), k derived from the session signing key by HKDF
// under a label of its own (as the CSRF key is): no key store of its own, and every instance agrees.
// Single use is the database's part: the nonce of a used token is recorded (shared/verbs/notifications/
// acknowledge-link.ts).
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { timingSafeEqualString } from "../../auth/constant-time.ts";
import { derivedKey } from "../../auth/derived-key.ts";
import { bytesToBase64Url, utf8Bytes } from "../../auth/encoding.ts";
import type { Random } from "../../clock.ts";

const KEY_LABEL = "svc-control-plane alert-ack-link v1";
const NONCE_BYTES = 16;
/** How long a link acknowledges (it also stops when its incident resolves). */
export const ACK_LINK_TTL_MS = 24 * 3600_000;
/** Ids, expiry, 16 bytes of nonce (22 base64url) and 32 of MAC (43). */
export const ACK_TOKEN_PATTERN = /^(\d{1,15})\.(\d{1,12})\.(\d{1,10})\.([A-Za-z0-9_-]{22})\.[A-Za-z0-9_-]{43}$/;

export interface AckClaims {
  incident_id: number;
  sink_id: number;
  expires_at: Date;
  nonce: string;
}

const ackKey = (signingKey: Uint8Array) => derivedKey(signingKey, KEY_LABEL);

const sign = (signingKey: Uint8Array, fields: string) =>
  `${fields}.${bytesToBase64Url(hmac(sha256, ackKey(signingKey), utf8Bytes(fields)))}`;

export function mintAckToken(
  signingKey: Uint8Array,
  claims: { incident_id: number; sink_id: number; expires_at: Date },
  random: Random,
): string {
  const exp = Math.floor(claims.expires_at.getTime() / 1000);
  return sign(signingKey, `${claims.incident_id}.${exp}.${claims.sink_id}.${bytesToBase64Url(random.bytes(NONCE_BYTES))}`);
}

/** The claims of a token this server signed, or null (malformed or forged); expiry is the caller's check. */
export function verifyAckToken(signingKey: Uint8Array, token: string): AckClaims | null {
  const m = ACK_TOKEN_PATTERN.exec(token);
  if (!m) return null;
  if (!timingSafeEqualString(sign(signingKey, token.slice(0, token.lastIndexOf("."))), token)) return null;
  return { incident_id: Number(m[1]), expires_at: new Date(Number(m[2]) * 1000), sink_id: Number(m[3]), nonce: m[4]! };
}
