// The IK handshake of Noise_IK_25519_ChaChaPoly_SHA256 (Noise specification sections 5.3 and 7.5):
//
//   IK:
//     <- s
//     ...
//     -> e, es, s, ss
//     <- e, ee, se
//
// The initiator (the agent) knows the responder's (the server's) static key beforehand; message 1
// carries the initiator's static key encrypted, so the responder learns who is calling (and looks the
// key up) before it answers with message 2. Each message's steps are written out token by token below.
// Any error ends the handshake: every later call throws a "failed" NoiseError.
import { concatBytes } from "@noble/hashes/utils.js";
import { NoiseError } from "./noise-error.ts";
import { DHLEN, dh, generateKeyPair, type KeyPair, keyPairOf, MAX_MESSAGE, TAGLEN } from "./primitives.ts";
import { SymmetricState } from "./symmetric-state.ts";
import { ReceiveCipher, SendCipher, type Transport } from "./transport.ts";
import { nobleX25519, type X25519 } from "./x25519.ts";

export const PROTOCOL_NAME = "Noise_IK_25519_ChaChaPoly_SHA256";

/** Message 1's fixed bytes: e, s encrypted (key + tag), the payload's tag. */
const MESSAGE_1_OVERHEAD = DHLEN + DHLEN + TAGLEN + TAGLEN;
/** Message 2's fixed bytes: e, the payload's tag. */
const MESSAGE_2_OVERHEAD = DHLEN + TAGLEN;

export interface InitiatorOptions {
  /** Our static secret key (32 bytes), or its key pair made once with the same X25519 (keyPairOf). */
  s: Uint8Array | KeyPair;
  /** The responder's static public key (32 bytes), known beforehand. */
  rs: Uint8Array;
  /** Bytes both sides must agree on; empty in production. */
  prologue?: Uint8Array;
  /** Our ephemeral secret key: injected only by tests; otherwise fresh from WebCrypto. */
  e?: Uint8Array;
  /** The X25519 to use: @noble's by default; Node's native one where the code runs on Node (x25519.ts). */
  x25519?: X25519;
}

export interface ResponderOptions {
  /** Our static secret key (32 bytes), or its key pair made once with the same X25519 (keyPairOf). */
  s: Uint8Array | KeyPair;
  /** Bytes both sides must agree on; empty in production. */
  prologue?: Uint8Array;
  /** Our ephemeral secret key: injected only by tests; otherwise fresh from WebCrypto. */
  e?: Uint8Array;
  /** The X25519 to use: @noble's by default; Node's native one where the code runs on Node (x25519.ts). */
  x25519?: X25519;
}

type Step = "write message 1" | "read message 1" | "write message 2" | "read message 2" | "split" | "done" | "failed";

abstract class IKHandshake {
  protected readonly symmetric = new SymmetricState(PROTOCOL_NAME);
  protected readonly s: KeyPair;
  protected readonly e: KeyPair;
  protected readonly x: X25519;

  readonly #initiator: boolean;
  #step: Step;

  /** Initialize(): the protocol name, then the prologue. The subclass hashes the pre-message "<- s". */
  protected constructor(initiator: boolean, options: { s: Uint8Array | KeyPair; e?: Uint8Array; prologue?: Uint8Array; x25519?: X25519 }) {
    this.#initiator = initiator;
    this.#step = initiator ? "write message 1" : "read message 1";
    this.x = options.x25519 ?? nobleX25519;
    this.s = options.s instanceof Uint8Array ? keyPairOf(options.s, this.x) : options.s;
    this.e = options.e ? keyPairOf(options.e, this.x) : generateKeyPair(this.x);
    this.symmetric.mixHash(options.prologue ?? new Uint8Array(0));
  }

  /** Runs one step if it is the expected one; any error ends the handshake. */
  protected step<T>(expected: Step, next: Step, run: () => T): T {
    if (this.#step === "failed") throw new NoiseError("failed", "an earlier error ended this handshake");
    try {
      if (this.#step !== expected) {
        const now = this.#step === "done" ? "the handshake is over" : `the next step is to ${this.#step}`;
        throw new NoiseError("out-of-order", `cannot ${expected} now: ${now}`);
      }
      const result = run();
      this.#step = next;
      return result;
    } catch (err) {
      this.#step = "failed";
      throw err;
    }
  }

  /** Split(): after the last message, this side's two transport directions and the handshake hash. */
  split(): Transport {
    return this.step("split", "done", () => {
      const handshakeHash = this.symmetric.handshakeHash;
      const [initiatorToResponder, responderToInitiator] = this.symmetric.split();
      this.e.secretKey.fill(0);
      return this.#initiator
        ? { send: new SendCipher(initiatorToResponder), receive: new ReceiveCipher(responderToInitiator), handshakeHash }
        : { send: new SendCipher(responderToInitiator), receive: new ReceiveCipher(initiatorToResponder), handshakeHash };
    });
  }
}

function checkSize(length: number, overhead: number): void {
  if (length > MAX_MESSAGE) throw new NoiseError("too-large", `a Noise message has at most ${MAX_MESSAGE} bytes, not ${length}`);
  if (length < overhead) throw new NoiseError("short-message", `this handshake message has at least ${overhead} bytes, not ${length}`);
}

function checkRemoteKey(key: Uint8Array): Uint8Array {
  if (key.length !== DHLEN) throw new NoiseError("bad-key", `an X25519 public key has ${DHLEN} bytes, not ${key.length}`);
  return key.slice();
}

/** The agent's side: writeMessage (message 1), readMessage (message 2), split(). */
export class IKInitiator extends IKHandshake {
  readonly #rs: Uint8Array;

  constructor(options: InitiatorOptions) {
    super(true, options);
    this.#rs = checkRemoteKey(options.rs);
    this.symmetric.mixHash(this.#rs); // the pre-message "<- s": the responder's key, known beforehand
  }

  /** Message 1: -> e, es, s, ss, then the payload encrypted. */
  writeMessage(payload: Uint8Array = new Uint8Array(0)): Uint8Array {
    return this.step("write message 1", "read message 2", () => {
      checkSize(MESSAGE_1_OVERHEAD + payload.length, MESSAGE_1_OVERHEAD);
      const { symmetric, s, e } = this;
      symmetric.mixHash(e.publicKey); // e
      symmetric.mixKey(dh(e, this.#rs, this.x)); // es
      const encryptedStatic = symmetric.encryptAndHash(s.publicKey); // s
      symmetric.mixKey(dh(s, this.#rs, this.x)); // ss
      return concatBytes(e.publicKey, encryptedStatic, symmetric.encryptAndHash(payload));
    });
  }

  /** Message 2: <- e, ee, se; returns its payload. */
  readMessage(message: Uint8Array): Uint8Array {
    return this.step("read message 2", "split", () => {
      checkSize(message.length, MESSAGE_2_OVERHEAD);
      const { symmetric, s, e } = this;
      const re = message.slice(0, DHLEN);
      symmetric.mixHash(re); // e
      symmetric.mixKey(dh(e, re, this.x)); // ee
      symmetric.mixKey(dh(s, re, this.x)); // se
      return symmetric.decryptAndHash(message.subarray(DHLEN));
    });
  }
}

/** The server's side: readMessage (message 1), then remoteStaticKey, writeMessage (message 2), split(). */
export class IKResponder extends IKHandshake {
  #re: Uint8Array | undefined;
  #rs: Uint8Array | undefined;

  constructor(options: ResponderOptions) {
    super(false, options);
    this.symmetric.mixHash(this.s.publicKey); // the pre-message "<- s": our own key
  }

  /** The initiator's static public key, once message 1 has been read and authenticated. */
  get remoteStaticKey(): Uint8Array | undefined {
    return this.#rs?.slice();
  }

  /** Message 1: -> e, es, s, ss; returns its payload. */
  readMessage(message: Uint8Array): Uint8Array {
    return this.step("read message 1", "write message 2", () => {
      checkSize(message.length, MESSAGE_1_OVERHEAD);
      const { symmetric, s } = this;
      const re = message.slice(0, DHLEN);
      symmetric.mixHash(re); // e
      symmetric.mixKey(dh(s, re, this.x)); // es
      const rs = symmetric.decryptAndHash(message.subarray(DHLEN, DHLEN + DHLEN + TAGLEN)); // s
      symmetric.mixKey(dh(s, rs, this.x)); // ss
      const payload = symmetric.decryptAndHash(message.subarray(DHLEN + DHLEN + TAGLEN));
      [this.#re, this.#rs] = [re, rs];
      return payload;
    });
  }

  /** Message 2: <- e, ee, se, then the payload encrypted. */
  writeMessage(payload: Uint8Array = new Uint8Array(0)): Uint8Array {
    return this.step("write message 2", "split", () => {
      checkSize(MESSAGE_2_OVERHEAD + payload.length, MESSAGE_2_OVERHEAD);
      const { symmetric, e } = this;
      const [re, rs] = [this.#re!, this.#rs!]; // set by message 1, which this step follows
      symmetric.mixHash(e.publicKey); // e
      symmetric.mixKey(dh(e, re, this.x)); // ee
      symmetric.mixKey(dh(e, rs, this.x)); // se
      return concatBytes(e.publicKey, symmetric.encryptAndHash(payload));
    });
  }
}

/** The agent's side of a handshake. */
export function initiator(options: InitiatorOptions): IKInitiator {
  return new IKInitiator(options);
}

/** The server's side of a handshake. */
export function responder(options: ResponderOptions): IKResponder {
  return new IKResponder(options);
}
