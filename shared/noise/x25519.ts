// X25519, the DH function of Noise_*_25519 (Noise specification section 12.1), behind one small interface
// so a runtime with a native implementation can hand it in: the handshake takes an X25519 in its options
// and defaults to @noble's, which runs everywhere (workerd, browsers, Node). Node's native one is in
// net/node-x25519.ts; the sidecar's and the agent's handshakes use it (docs/agents.md).
import { x25519 } from "@noble/curves/ed25519.js";

export interface KeyPair {
  secretKey: Uint8Array;
  publicKey: Uint8Array;
  /** What the implementation prepared from the secret key to compute with it (Node: its KeyObject). */
  prepared?: unknown;
}

export interface X25519 {
  /** The key pair of a 32-byte secret key (the caller has checked its length and owns the copy). */
  keyPair(secretKey: Uint8Array): KeyPair;
  /** The shared secret; throws for a public key whose result is all zeros (a low-order point). */
  sharedSecret(pair: KeyPair, publicKey: Uint8Array): Uint8Array;
}

/** @noble/curves' X25519: pure JavaScript, runtime-neutral. */
export const nobleX25519: X25519 = {
  keyPair: (secretKey) => ({ secretKey, publicKey: x25519.getPublicKey(secretKey) }),
  sharedSecret: (pair, publicKey) => x25519.getSharedSecret(pair.secretKey, publicKey),
};
