// Signed agent releases (docs/adr/0426-agent-release-signatures.md). A build of version V for os/arch is
// the file V/<os>/<arch>/svc-agent under the build directory; its SHA256SUMS entry is the line
// `<sha256 hex>  V/<os>/<arch>/svc-agent\n` (the format `sha256sum -c` reads, relative to the build
// directory). The release key (Ed25519) signs each entry, so one signature vouches for the bytes, the
// version and the platform together; it also signs the version's whole SHA256SUMS file. Signatures
// are base64 of the 64 raw bytes; public keys are 64 hex, or the SPKI PEM openssl reads.
import { ed25519 } from "@noble/curves/ed25519.js";
import { base64ToBytes, bytesToBase64, bytesToHex, hexToBytes, utf8Bytes } from "../auth/encoding.ts";

/** The name every build file has in the layout. */
export const BUILD_FILE = "svc-agent";
export const RELEASE_KEY_PATTERN = /^[0-9a-f]{64}$/;
const SHA256_PATTERN = /^[0-9a-f]{64}$/;

export interface BuildRef {
  version: string;
  os: string;
  arch: string;
}

/** The build's path relative to the build directory. */
export function buildPath(b: BuildRef): string {
  return `${b.version}/${b.os}/${b.arch}/${BUILD_FILE}`;
}

/** The SHA256SUMS line of a build: what its signature signs. */
export function releaseEntry(b: BuildRef & { sha256: string }): string {
  if (!SHA256_PATTERN.test(b.sha256)) throw new Error("sha256 must be 64 lowercase hex characters");
  return `${b.sha256}  ${buildPath(b)}\n`;
}

/** DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410); the 32 key bytes follow. */
const SPKI_PREFIX = "302a300506032b6570032100";

/** The public key as the PEM `openssl pkeyutl -verify -pubin` reads. */
export function releaseKeyPem(publicKeyHex: string): string {
  const der = hexToBytes(SPKI_PREFIX + publicKeyHex);
  if (!RELEASE_KEY_PATTERN.test(publicKeyHex) || !der) throw new Error("release public key must be 64 lowercase hex characters");
  return `-----BEGIN PUBLIC KEY-----\n${bytesToBase64(der)}\n-----END PUBLIC KEY-----\n`;
}

/** A public key given as 64 hex or as an Ed25519 SPKI PEM, as 64 lowercase hex; undefined when it is neither. */
export function parseReleaseKey(text: string): string | undefined {
  const t = text.trim();
  if (RELEASE_KEY_PATTERN.test(t.toLowerCase())) return t.toLowerCase();
  const m = /^-----BEGIN PUBLIC KEY-----\s*([A-Za-z0-9+/=\s]+?)\s*-----END PUBLIC KEY-----$/.exec(t);
  const der = m ? base64ToBytes(m[1]!.replace(/\s+/g, "")) : null;
  if (der?.length !== 44) return undefined;
  const hex = bytesToHex(der);
  return hex.startsWith(SPKI_PREFIX) ? hex.slice(SPKI_PREFIX.length) : undefined;
}

/** A short name for a key in messages: the first 16 hex characters. */
export function releaseKeyId(publicKeyHex: string): string {
  return publicKeyHex.slice(0, 16);
}

/** Whether `signature` (base64) is the release key's Ed25519 signature of `message`. Never throws. */
export function verifyReleaseSignature(message: string | Uint8Array, signature: string, publicKeyHex: string): boolean {
  const sig = base64ToBytes(signature.trim());
  const key = RELEASE_KEY_PATTERN.test(publicKeyHex) ? hexToBytes(publicKeyHex) : null;
  if (sig?.length !== 64 || !key) return false;
  try {
    return ed25519.verify(sig, typeof message === "string" ? utf8Bytes(message) : message, key);
  } catch {
    return false;
  }
}
