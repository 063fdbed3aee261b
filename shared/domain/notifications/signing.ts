// The webhook sink's signatures (docs/adr/0111-notifications-delivery.md): Standard Webhooks (`webhook-id`, `webhook-timestamp`,
// `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed by the base64 after `whsec_`)
// and GitHub's `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>` (keyed by the whole secret
// string, as GitHub receivers configure it). HMAC from @noble/hashes: runtime-neutral like WebCrypto (the edge
// can verify too) but synchronous, and a fifth of WebCrypto's CPU for a message this size, whose key import
// and async job dominated a burst's sends (issue 30's benchmark).
import { hmac as nobleHmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { base64ToBytes, bytesToBase64, bytesToHex, hexToBytes } from "../../auth/encoding.ts";

const encoder = new TextEncoder();

export const WEBHOOK_SECRET_PREFIX = "whsec_";

function hmac(key: Uint8Array, message: string): Uint8Array {
  return nobleHmac(sha256, key, encoder.encode(message));
}

/** The key bytes of a Standard Webhooks secret: base64 after `whsec_`; any other string as UTF-8. */
export function standardWebhooksKey(secret: string): Uint8Array {
  if (secret.startsWith(WEBHOOK_SECRET_PREFIX)) {
    const bytes = base64ToBytes(secret.slice(WEBHOOK_SECRET_PREFIX.length));
    if (bytes) return bytes;
  }
  return encoder.encode(secret);
}

export function generateWebhookSecret(random: { bytes(n: number): Uint8Array }): string {
  return WEBHOOK_SECRET_PREFIX + bytesToBase64(random.bytes(24));
}

export async function webhookSignatureHeaders(
  secret: string,
  id: string,
  timestampSecs: number,
  body: string,
): Promise<Record<string, string>> {
  const standard = hmac(standardWebhooksKey(secret), `${id}.${timestampSecs}.${body}`);
  const github = hmac(encoder.encode(secret), body);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestampSecs),
    "webhook-signature": `v1,${bytesToBase64(standard)}`,
    "x-hub-signature-256": `sha256=${bytesToHex(github)}`,
  };
}

/**
 * base64 of HMAC-SHA256(key, message), both UTF-8: the chat bots' signatures (DingTalk keys it by the
 * secret over "timestamp\nsecret"; Feishu/Lark keys it by "timestamp\nsecret" over the empty message).
 */
export async function hmacSha256Base64(key: string, message: string): Promise<string> {
  return bytesToBase64(hmac(encoder.encode(key), message));
}

/**
 * A name-based UUID (RFC 9562 version 5, SHA-1) in our own namespace: the same name always gives the same
 * UUID, so a retried delivery carries the same idempotency key (LINE's X-Line-Retry-Key).
 */
const NAME_UUID_NAMESPACE = "6f0e1c52-3a8b-5d4e-9b7a-2c1d0e9f8a71";

export async function nameUuid(name: string): Promise<string> {
  const ns = hexToBytes(NAME_UUID_NAMESPACE.replaceAll("-", ""))!;
  const input = new Uint8Array([...ns, ...encoder.encode(name)]);
  const b = new Uint8Array(await crypto.subtle.digest("SHA-1", input)).slice(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = bytesToHex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
