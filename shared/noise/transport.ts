// The two directions of a finished handshake. Each wraps one CipherState from Split() and adds what the
// link needs around it: the 65535-byte message limit, and on the receiving side "fail closed": the link
// runs over an ordered, reliable socket, so a message that fails is an attack or a fault, and the
// messages after it could not decrypt anyway (the sender's nonce moved on, ours did not). Rekey is the
// specification's Rekey() on one direction; when to call it (every 15 minutes, announced by a
// `transport.rekey` frame) is the link's business.
import type { CipherState } from "./cipher-state.ts";
import { NoiseError } from "./noise-error.ts";
import { MAX_MESSAGE, TAGLEN } from "./primitives.ts";

const NO_AD = new Uint8Array(0);

function requireKey(cipher: CipherState): CipherState {
  if (!cipher.hasKey()) throw new NoiseError("bad-key", "a transport cipher needs a key");
  return cipher;
}

/** Our sending direction: encrypt(plaintext) gives the next transport message. */
export class SendCipher {
  readonly #cipher: CipherState;

  constructor(cipher: CipherState) {
    this.#cipher = requireKey(cipher);
  }

  /** The nonce of the next message. */
  get nonce(): bigint {
    return this.#cipher.nonce;
  }

  /** The transport message carrying `plaintext`. A plaintext too large for one message changes nothing. */
  encrypt(plaintext: Uint8Array, ad: Uint8Array = NO_AD): Uint8Array {
    if (plaintext.length + TAGLEN > MAX_MESSAGE)
      throw new NoiseError("too-large", `a transport message carries at most ${MAX_MESSAGE - TAGLEN} bytes, not ${plaintext.length}`);
    return this.#cipher.encryptWithAd(ad, plaintext);
  }

  /** Rekey(): the next messages use REKEY(k). The peer must rekey its receiving side at the same message. */
  rekey(): void {
    this.#cipher.rekey();
  }
}

/** Our receiving direction: decrypt(message) gives its plaintext. Any error closes it for good. */
export class ReceiveCipher {
  readonly #cipher: CipherState;
  #failed = false;

  constructor(cipher: CipherState) {
    this.#cipher = requireKey(cipher);
  }

  /** The nonce the next message must have been sent with. */
  get nonce(): bigint {
    return this.#cipher.nonce;
  }

  decrypt(message: Uint8Array, ad: Uint8Array = NO_AD): Uint8Array {
    return this.#unlessFailed(() => {
      if (message.length > MAX_MESSAGE)
        throw new NoiseError("too-large", `a Noise message has at most ${MAX_MESSAGE} bytes, not ${message.length}`);
      if (message.length < TAGLEN)
        throw new NoiseError("short-message", `a transport message has at least ${TAGLEN} bytes, not ${message.length}`);
      return this.#cipher.decryptWithAd(ad, message);
    });
  }

  /** Rekey(): the next messages are expected under REKEY(k), as the peer's sending side rekeyed. */
  rekey(): void {
    this.#unlessFailed(() => this.#cipher.rekey());
  }

  #unlessFailed<T>(run: () => T): T {
    if (this.#failed) throw new NoiseError("failed", "an earlier message failed; this link must close");
    try {
      return run();
    } catch (err) {
      this.#failed = true;
      throw err;
    }
  }
}

/** What a finished handshake gives each side. */
export interface Transport {
  send: SendCipher;
  receive: ReceiveCipher;
  /** h at the end of the handshake: the same on both sides, usable for channel binding. */
  handshakeHash: Uint8Array;
}
