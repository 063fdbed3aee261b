// SymmetricState (Noise specification section 5.2): the chaining key ck, the handshake hash h and the
// CipherState the handshake encrypts with. Everything sent or received is hashed into h and every DH
// output is mixed into ck, so both sides end with the same keys only if they saw the same handshake.
import { CipherState } from "./cipher-state.ts";
import { HASHLEN, hash, hkdf } from "./primitives.ts";

export class SymmetricState {
  #ck: Uint8Array;
  #h: Uint8Array;
  readonly #cipher = new CipherState();

  /** InitializeSymmetric(protocol_name): h = the name zero-padded to HASHLEN, or its hash if longer. */
  constructor(protocolName: string) {
    const name = new TextEncoder().encode(protocolName);
    if (name.length <= HASHLEN) {
      this.#h = new Uint8Array(HASHLEN);
      this.#h.set(name);
    } else {
      this.#h = hash(name);
    }
    this.#ck = this.#h.slice();
  }

  /** MixKey(input_key_material): ck, temp_k = HKDF(ck, ikm, 2); the cipher takes temp_k. */
  mixKey(inputKeyMaterial: Uint8Array): void {
    const [ck, tempK] = hkdf(this.#ck, inputKeyMaterial, 2);
    this.#ck = ck;
    this.#cipher.initializeKey(tempK); // HASHLEN is 32, so temp_k needs no truncation
  }

  /** MixHash(data): h = HASH(h || data). */
  mixHash(data: Uint8Array): void {
    this.#h = hash(this.#h, data);
  }

  /** GetHandshakeHash(). */
  get handshakeHash(): Uint8Array {
    return this.#h.slice();
  }

  /** EncryptAndHash(plaintext): encrypt with h as associated data, then hash the ciphertext into h. */
  encryptAndHash(plaintext: Uint8Array): Uint8Array {
    const ciphertext = this.#cipher.encryptWithAd(this.#h, plaintext);
    this.mixHash(ciphertext);
    return ciphertext;
  }

  /** DecryptAndHash(ciphertext): decrypt with h as associated data, then hash the ciphertext into h. */
  decryptAndHash(ciphertext: Uint8Array): Uint8Array {
    const plaintext = this.#cipher.decryptWithAd(this.#h, ciphertext);
    this.mixHash(ciphertext);
    return plaintext;
  }

  /** Split(): the initiator-to-responder and responder-to-initiator CipherStates. */
  split(): [CipherState, CipherState] {
    const [k1, k2] = hkdf(this.#ck, new Uint8Array(0), 2);
    this.#ck.fill(0);
    return [new CipherState(k1), new CipherState(k2)];
  }
}
