// What the agent does with the link's key and pin frames (docs/agents.md, Rotating an agent's device key
// and TLS pinning): `key.rotate {kind: "device", request: true}` makes and announces a successor device
// key; the server's answer keeps it (accepted) or forgets it (rejected, with the reason logged);
// `tls.pin.rotate` keeps a successor pin and reports the pins held at once in a heartbeat. A successor
// not yet accepted is announced again on every link made with the current key until its expiry.
import type { KeyPair } from "../shared/noise/index.ts";
import type { DeviceKeys } from "./device-key.ts";
import type { AgentLog } from "./log.ts";
import type { TlsPins } from "./tls-pin.ts";

export type KeyEvent =
  | {
      type: "device_key";
      status: "announced" | "accepted" | "rejected" | "rotated" | "dropped" | "fallback";
      public_key: string;
      reason?: string;
    }
  | { type: "tls_pin_rotation"; successor_pin: string; mode: string; expiry: string };

export interface KeyHooksDeps {
  keys: DeviceKeys;
  pins: TlsPins;
  log: AgentLog;
  emit(event: KeyEvent): void;
  /** Sends on the live link; false when there is none. */
  send(type: "key.rotate" | "heartbeat", payload: Record<string, unknown>): boolean;
  /** A heartbeat payload (the spool's figures). */
  heartbeat(): Record<string, unknown>;
  /** The accepted successor should be used now: end this link so the next one is made with it. */
  relink(): void;
}

export class KeyHooks {
  readonly #d: KeyHooksDeps;

  constructor(deps: KeyHooksDeps) {
    this.#d = deps;
  }

  /** A new successor key, announced on the link (the agent's own rotation, or the server's request). */
  rotateDeviceKey(now = new Date()): string {
    const s = this.#d.keys.makeSuccessor(now);
    this.#announce();
    return s.publicKey;
  }

  onDeviceKeyRotate(p: Record<string, unknown>): void {
    const { keys, log, emit } = this.#d;
    if (p.request === true) {
      log.info("the server asks for a device key rotation");
      this.rotateDeviceKey();
      return;
    }
    if (typeof p.successor_pk !== "string" || (p.status !== "accepted" && p.status !== "rejected")) return;
    const accepted = p.status === "accepted";
    if (!keys.answered(p.successor_pk, accepted)) return;
    if (accepted) {
      log.info(`the server accepted the successor device key (until ${String(p.expiry)}); linking with it`);
      emit({ type: "device_key", status: "accepted", public_key: p.successor_pk });
      this.#d.relink();
    } else {
      const reason = typeof p.reason === "string" ? p.reason : "no reason given";
      log.warn(`the server refused the successor device key: ${reason}; keeping the current key`);
      emit({ type: "device_key", status: "rejected", public_key: p.successor_pk, reason });
    }
  }

  /** A link was accepted with `pair`: a successor used is the device key now; one unannounced is announced. */
  onLinked(pair: KeyPair, now = new Date()): void {
    const { keys, log, emit } = this.#d;
    const before = keys.successor;
    const change = keys.linkedWith(pair, now);
    if (change === "promoted") {
      log.info(`device key rotated: this agent is now ${keys.publicKey}`);
      emit({ type: "device_key", status: "rotated", public_key: keys.publicKey });
    } else if (change === "dropped" && before) {
      log.warn("the successor device key expired before a link was made with it; keeping the current key");
      emit({ type: "device_key", status: "dropped", public_key: before.publicKey });
    } else if (before && !before.accepted) this.#announce();
  }

  /** The server did not know the successor: the next candidate (the current key) is tried. */
  onRefused(pair: KeyPair): void {
    const s = this.#d.keys.successor;
    if (s?.pair !== pair) return;
    this.#d.log.warn("the server refused the successor device key; falling back to the current key");
    this.#d.emit({ type: "device_key", status: "fallback", public_key: s.publicKey });
  }

  onTlsPinRotate(p: Record<string, unknown>): void {
    const { pins, log, emit } = this.#d;
    if (!pins.adopt(p)) {
      log.debug("tls.pin.rotate ignored: malformed, expired, or already held");
      return;
    }
    log.info(`the server announced a TLS pin rotation: ${String(p.successor_pin)} (${String(p.mode)}) accepted until ${String(p.expiry)}`);
    emit({ type: "tls_pin_rotation", successor_pin: String(p.successor_pin), mode: String(p.mode), expiry: String(p.expiry) });
    this.#d.send("heartbeat", { ...this.#d.heartbeat(), tls_pins: pins.pins() });
  }

  #announce(): void {
    const s = this.#d.keys.successor;
    if (!s) return;
    if (this.#d.send("key.rotate", { kind: "device", successor_pk: s.publicKey, expiry: s.expiry })) {
      this.#d.log.info(`announced a successor device key (overlap until ${s.expiry})`);
      this.#d.emit({ type: "device_key", status: "announced", public_key: s.publicKey });
    }
  }
}
