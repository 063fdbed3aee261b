// SHA-256 digests of text as the credential code stores them: hex for one-time codes looked up by their
// hash, and the PKCE S256 challenge (RFC 7636, section 4.2: base64url without padding).
import { bytesToBase64Url, bytesToHex, utf8Bytes } from "./encoding.ts";

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", utf8Bytes(text)));
}

export async function sha256Hex(text: string): Promise<string> {
  return bytesToHex(await sha256(text));
}

/** The S256 code_challenge of a PKCE code_verifier. */
export async function pkceChallenge(verifier: string): Promise<string> {
  return bytesToBase64Url(await sha256(verifier));
}
