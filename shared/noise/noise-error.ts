// The one error of the Noise code. Its `reason` says what went wrong, so the agent link can log it and
// close the socket; the message is for people.

export type NoiseErrorReason =
  /** A ciphertext failed authentication: tampered, replayed, out of order, or keys/prologue disagree. */
  | "bad-mac"
  /** A key of the wrong length, or X25519 refused it (a low-order point gives an all-zero secret). */
  | "bad-key"
  /** A handshake step called out of turn (read before write, split before the last message...). */
  | "out-of-order"
  /** A message shorter than its fixed parts (ephemeral key, encrypted static key, tags). */
  | "short-message"
  /** A message over 65535 bytes, the limit of every Noise message (specification section 3). */
  | "too-large"
  /** The nonce reached 2^64-1, which is reserved (section 5.1): this direction is spent. */
  | "nonce-exhausted"
  /** An earlier error ended this handshake or receiving direction; start a new handshake. */
  | "failed";

export class NoiseError extends Error {
  override name = "NoiseError";
  readonly reason: NoiseErrorReason;

  constructor(reason: NoiseErrorReason, message: string) {
    super(`${reason}: ${message}`);
    this.reason = reason;
  }
}
