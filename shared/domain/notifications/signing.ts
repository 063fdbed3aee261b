// The webhook sink's signatures (docs/adr/0111-notifications-delivery.md): Standard Webhooks (`webhook-id`, `webhook-timestamp`,
// `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed by the base64 after `whsec_`)
// and GitHub's `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>` (keyed by the whole secret
// string, as GitHub receivers configure it). WebCrypto only, so the edge can verify too.
import { base64ToBytes, bytesToBase64, bytesToHex } from "../../auth/encoding.ts";

const encoder = new TextEncoder();

export const WEBHOOK_SECRET_PREFIX = "whsec_";

async function hmac(key: Uint8Array, message: string): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey("raw", key as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, encoder.encode(message)));
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
  const standard = await hmac(standardWebhooksKey(secret), `${id}.${timestampSecs}.${body}`);
  const github = await hmac(encoder.encode(secret), body);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestampSecs),
    "webhook-signature": `v1,${bytesToBase64(standard)}`,
    "x-hub-signature-256": `sha256=${bytesToHex(github)}`,
  };
}
