// Node's native X25519 (OpenSSL), for the agent link's Noise handshakes (so in net/, which the agent and the
// sidecar both import), behind the Noise code's X25519 interface (shared/noise/x25519.ts): the
// sidecar's and the agent's handshakes use it, about twenty times cheaper than the pure-JavaScript one
// (issue 37: the server's CPU per agent handshake). Raw 32-byte keys go in and out through the fixed DER
// prefixes of RFC 8410 (PKCS#8 for a secret key, SubjectPublicKeyInfo for a public one).
import { createPrivateKey, createPublicKey, diffieHellman, KeyObject } from "node:crypto";
import type { KeyPair, X25519 } from "../shared/noise/x25519.ts";

const PKCS8_PREFIX = Buffer.from("302e020100300506032b656e04220420", "hex");
const SPKI_PREFIX = Buffer.from("302a300506032b656e032100", "hex");

const secretKeyObject = (secretKey: Uint8Array): KeyObject =>
  createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, secretKey]), format: "der", type: "pkcs8" });

const publicKeyObject = (publicKey: Uint8Array): KeyObject =>
  createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: "der", type: "spki" });

/** The KeyObject a pair was prepared with (made here), or made now (a pair made by another X25519). */
const keyObjectOf = (pair: KeyPair): KeyObject => (pair.prepared instanceof KeyObject ? pair.prepared : secretKeyObject(pair.secretKey));

export const nodeX25519: X25519 = {
  // Parsing the secret key into OpenSSL is most of a DH's cost: it is done once per pair and kept with it.
  keyPair(secretKey) {
    const prepared = secretKeyObject(secretKey);
    const spki = createPublicKey(prepared).export({ format: "der", type: "spki" });
    return { secretKey, publicKey: new Uint8Array(spki.subarray(SPKI_PREFIX.length)), prepared };
  },
  // OpenSSL refuses an all-zero result (a low-order public key) with an error, as the interface asks.
  sharedSecret(pair, publicKey) {
    return new Uint8Array(diffieHellman({ privateKey: keyObjectOf(pair), publicKey: publicKeyObject(publicKey) }));
  },
};
