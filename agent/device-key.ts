// The device key and a rotation of it (docs/agents.md, Rotating an agent's device key; docs/adr/0427).
// A rotation makes a successor key pair and keeps it in device-successor.json (0600, written atomically
// before it is announced with `key.rotate {kind: "device"}`), so a crash never loses a key the server may
// already accept. Until the expiry the next link tries the successor first and falls back to the
// current key when the server refuses it; past the expiry the current key first (the server dropped a
// successor it never saw linked), the successor second (it may have been promoted just before). The
// key a link is accepted with wins: the successor becomes device.key, or a stale successor is dropped.
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { generateKeyPair, type KeyPair, keyPairOf } from "../shared/noise/index.ts";
import type { AgentState } from "./state.ts";

/** The overlap the agent asks for (the server takes at most 30 days). */
export const DEVICE_ROTATION_OVERLAP_MS = 7 * 24 * 3600_000;
const FILE = "device-successor.json";

interface SuccessorFile {
  /** 64 hex: the successor's X25519 secret key. */
  secret_key: string;
  expiry: string;
  /** The server answered `accepted` (else it has not answered yet). */
  accepted: boolean;
}

export interface Successor {
  pair: KeyPair;
  publicKey: string;
  expiry: string;
  accepted: boolean;
}

export class DeviceKeys {
  readonly #state: AgentState;
  #current: KeyPair;
  #successor: Successor | null;

  constructor(state: AgentState) {
    this.#state = state;
    this.#current = state.deviceKey();
    const file = state.readJson<SuccessorFile>(FILE);
    this.#successor = file && /^[0-9a-f]{64}$/.test(file.secret_key) ? successorOf(file) : null;
    // A crash between the two writes of promote(): the successor already is the device key.
    if (this.#successor && bytesToHex(this.#successor.pair.publicKey) === this.publicKey) this.#save(null);
  }

  /** The current device public key, 64 hex. */
  get publicKey(): string {
    return bytesToHex(this.#current.publicKey);
  }

  get successor(): Successor | null {
    return this.#successor;
  }

  /** The keys to link with, in order (see the file's head). */
  candidates(now: Date): KeyPair[] {
    const s = this.#successor;
    if (!s) return [this.#current];
    return Date.parse(s.expiry) > now.getTime() ? [s.pair, this.#current] : [this.#current, s.pair];
  }

  /** A new successor (replacing one not yet linked with), stored before anyone hears of it. */
  makeSuccessor(now: Date, overlapMs = DEVICE_ROTATION_OVERLAP_MS): Successor {
    const pair = generateKeyPair();
    this.#save({ pair, publicKey: bytesToHex(pair.publicKey), expiry: new Date(now.getTime() + overlapMs).toISOString(), accepted: false });
    return this.#successor!;
  }

  /** The server's answer to our key.rotate; a refusal forgets the successor. */
  answered(successorPk: string, accepted: boolean): boolean {
    if (this.#successor?.publicKey !== successorPk) return false;
    this.#save(accepted ? { ...this.#successor, accepted: true } : null);
    return true;
  }

  /**
   * A link was accepted with `pair`: a successor becomes the device key ("promoted"); the current key
   * past the successor's expiry drops it ("dropped"); else nothing changes.
   */
  linkedWith(pair: KeyPair, now: Date): "promoted" | "dropped" | undefined {
    const s = this.#successor;
    if (!s) return undefined;
    if (pair === s.pair) {
      this.#state.saveDeviceKey(s.pair);
      this.#current = s.pair;
      this.#save(null);
      return "promoted";
    }
    if (Date.parse(s.expiry) <= now.getTime()) {
      this.#save(null);
      return "dropped";
    }
    return undefined;
  }

  /** Enrolling afresh: the server knows neither key, so no successor is kept. */
  forgetSuccessor(): void {
    this.#save(null);
  }

  #save(successor: Successor | null): void {
    this.#state.writeJson(
      FILE,
      successor && { secret_key: bytesToHex(successor.pair.secretKey), expiry: successor.expiry, accepted: successor.accepted },
    );
    this.#successor = successor;
  }
}

function successorOf(file: SuccessorFile): Successor {
  const pair = keyPairOf(hexToBytes(file.secret_key));
  return { pair, publicKey: bytesToHex(pair.publicKey), expiry: file.expiry, accepted: file.accepted === true };
}
