// The server's Noise static keys as the link uses them: loaded from the vault once and kept (current
// first, then a rotation's successor), reloaded on agent_control "server_key" and every keyRefreshMs.
// Message 1 of a handshake is tried against each key in turn: an agent that already follows a rotation
// completes it with the successor, one that does not yet with the current key.
import { bytesToHex } from "../../shared/auth/encoding.ts";
import type { Db } from "../../shared/db/database.ts";
import { nodeX25519 } from "../../net/node-x25519.ts";
import { type IKResponder, type KeyPair, keyPairOf, responder, type Transport } from "../../shared/noise/index.ts";
import { type LinkServerKey, linkServerKeys } from "../../shared/verbs/agents/server-key.ts";
import type { Vault } from "../../shared/vault/vault.ts";

export interface Accepted {
  transport: Transport;
  /** The device's static key, 64 hex. */
  devicePk: string;
  key: LinkServerKey;
  /** Handshake message 2, for the socket. */
  reply: Uint8Array;
}

export class ServerKeys {
  #keys: LinkServerKey[] = [];
  #pairs = new Map<LinkServerKey, KeyPair>();
  readonly #db: Db;
  readonly #vault: Vault;

  constructor(db: Db, vault: Vault) {
    this.#db = db;
    this.#vault = vault;
  }

  get loaded(): boolean {
    return this.#keys.length > 0;
  }

  async reload(now: Date): Promise<void> {
    this.#keys = await linkServerKeys(this.#db, this.#vault, now);
    // Each key prepared for the native X25519 once, not on every handshake (issue 37).
    this.#pairs = new Map(this.#keys.map((k) => [k, keyPairOf(k.secretKey, nodeX25519)]));
  }

  /** The successor being rotated to, if any (for key.rotate). */
  successor(): LinkServerKey | undefined {
    return this.#keys.find((k) => k.state === "successor");
  }

  /**
   * Reads handshake message 1 (its payload must be empty) and writes message 2 (empty), or answers the
   * reason it failed. Nothing is thrown: every byte here is the peer's.
   */
  accept(message1: Uint8Array): Accepted | string {
    for (const key of this.#keys) {
      let hs: IKResponder;
      try {
        hs = responder({ s: this.#pairs.get(key) ?? key.secretKey, x25519: nodeX25519 });
        const payload = hs.readMessage(message1);
        if (payload.length !== 0) return "handshake_payload_not_empty";
      } catch {
        continue;
      }
      try {
        const reply = hs.writeMessage();
        const devicePk = bytesToHex(hs.remoteStaticKey!);
        return { transport: hs.split(), devicePk, key, reply };
      } catch {
        return "handshake_failed";
      }
    }
    return this.#keys.length === 0 ? "server_key_unavailable" : "handshake_failed";
  }
}
