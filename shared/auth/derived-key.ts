// A key of its own for each use of the session signing key (the CSRF tokens, the acknowledge links, the
// status page subscription links): HKDF-SHA256 under a label per use, so every instance derives the same
// key and a leak of one derived key reveals neither the others nor the session key.
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { utf8Bytes } from "./encoding.ts";

const derived = new Map<string, WeakMap<Uint8Array, Uint8Array>>();

export function derivedKey(signingKey: Uint8Array, label: string): Uint8Array {
  let byKey = derived.get(label);
  if (!byKey) derived.set(label, (byKey = new WeakMap()));
  let key = byKey.get(signingKey);
  if (!key) {
    key = hkdf(sha256, signingKey, undefined, utf8Bytes(label), 32);
    byKey.set(signingKey, key);
  }
  return key;
}
