// What the agent keeps between runs, in its state directory: device.key (its X25519 static secret as
// hex, mode 0600, made on first run), server.json (the server keys it trusts, the successor a
// key.rotate announced, and its enrollment: agent id and status), and the files of device-key.ts
// (a device key rotation under way) and tls-pin.ts (the TLS pins it holds). Writes go to a temporary file first
// and are renamed over, so a crash never leaves half a file.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { generateKeyPair, type KeyPair, keyPairOf } from "../shared/noise/index.ts";

export interface ServerTrust {
  url: string;
  /** 64 hex: the key handshakes use. */
  current_pk: string;
  /** 64 hex from key.rotate: tried first until it works or `successor_expiry` passes. */
  successor_pk: string | null;
  successor_expiry: string | null;
  agent_id: number | null;
  status: "pending" | "active" | "rejected" | "revoked" | null;
}

const HEX_KEY = /^[0-9a-f]{64}$/;

export class AgentState {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /** The device key pair, created (0600) on first use. */
  deviceKey(): KeyPair {
    const file = join(this.dir, "device.key");
    if (existsSync(file)) {
      const hex = readFileSync(file, "utf8").trim();
      if (!HEX_KEY.test(hex)) throw new Error(`${file} does not hold a 64-hex X25519 secret key`);
      chmodSync(file, 0o600);
      return keyPairOf(hexToBytes(hex));
    }
    const pair = generateKeyPair();
    this.#write("device.key", `${bytesToHex(pair.secretKey)}\n`);
    return pair;
  }

  server(): ServerTrust | null {
    const file = join(this.dir, "server.json");
    if (!existsSync(file)) return null;
    const value = JSON.parse(readFileSync(file, "utf8")) as ServerTrust;
    if (!HEX_KEY.test(value.current_pk)) throw new Error(`${file} holds no valid server key`);
    return value;
  }

  saveServer(trust: ServerTrust): void {
    this.#write("server.json", `${JSON.stringify(trust, null, 2)}\n`);
  }

  /** Changes some fields of server.json (which must exist). */
  updateServer(change: Partial<ServerTrust>): ServerTrust {
    const next = { ...this.server()!, ...change };
    this.saveServer(next);
    return next;
  }

  /** A JSON file of the state directory, or null when there is none. */
  readJson<T>(name: string): T | null {
    const file = join(this.dir, name);
    return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as T) : null;
  }

  /** Writes a JSON file of the state directory atomically (0600), or removes it (null). */
  writeJson(name: string, value: unknown): void {
    if (value === null) rmSync(join(this.dir, name), { force: true });
    else this.#write(name, `${JSON.stringify(value, null, 2)}\n`);
  }

  /** Makes `pair` the device key (a rotation's successor taking over). */
  saveDeviceKey(pair: KeyPair): void {
    this.#write("device.key", `${bytesToHex(pair.secretKey)}\n`);
  }

  #write(name: string, text: string): void {
    const file = join(this.dir, name);
    const tmp = `${file}.tmp-${process.pid}`;
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, file);
  }
}

export function isServerKeyHex(value: string): boolean {
  return HEX_KEY.test(value);
}
