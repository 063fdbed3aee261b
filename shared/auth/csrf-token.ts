// Session-bound CSRF tokens: OWASP's "signed double-submit cookie". A token is `<nonce>.<mac>` with
// mac = HMAC-SHA256(k, len(sid) "!" sid "!" len(nonce) "!" nonce), so a cookie planted from a sibling
// subdomain, or a token minted for another session, is refused even when header and cookie agree.
// k is derived from the session signing key (HKDF, fixed label): no configuration of its own, and every
// instance that signs sessions alike also agrees on CSRF tokens.
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import type { Random } from "../clock.ts";
import { timingSafeEqualString } from "./constant-time.ts";
import { derivedKey } from "./derived-key.ts";
import { bytesToBase64Url, utf8Bytes } from "./encoding.ts";

const KEY_LABEL = "svc-control-plane csrf-token v1";
const NONCE_BYTES = 32;
/** 32 bytes of nonce and 32 of MAC, each 43 characters of unpadded base64url. */
const SHAPE = /^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/;

const csrfKey = (signingKey: Uint8Array) => derivedKey(signingKey, KEY_LABEL);

function withMac(signingKey: Uint8Array, sessionId: string, nonce: string): string {
  // Length-prefixed fields (as OWASP writes it): no two (sid, nonce) pairs share a message.
  const message = utf8Bytes(`${sessionId.length}!${sessionId}!${nonce.length}!${nonce}`);
  return `${nonce}.${bytesToBase64Url(hmac(sha256, csrfKey(signingKey), message))}`;
}

/** A fresh CSRF token for the session `sessionId`, for the svc_csrf cookie and the `csrf_token` field. */
export function mintCsrfToken(signingKey: Uint8Array, sessionId: string, random: Random): string {
  return withMac(signingKey, sessionId, bytesToBase64Url(random.bytes(NONCE_BYTES)));
}

/** True when `token` was minted by `mintCsrfToken` for this session under this signing key. */
export function verifyCsrfToken(signingKey: Uint8Array, sessionId: string, token: string): boolean {
  if (!SHAPE.test(token)) return false;
  return timingSafeEqualString(withMac(signingKey, sessionId, token.slice(0, token.indexOf("."))), token);
}
