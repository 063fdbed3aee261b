// The short form of an X25519 public key shown to operators (spec/catalogue.tsv, group agents): the first 32 hex
// characters of its SHA-256. Agents' device keys and the server's static keys both use it.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "../../auth/encoding.ts";

export function keyFingerprint(publicKey: Uint8Array): string {
  return bytesToHex(sha256(publicKey)).slice(0, 32);
}
