// Per-process identity caches: the session signing key (generated once, kept in server_secrets so every
// instance signs alike) and whether first run is over (once true it stays true).
import { eq } from "drizzle-orm";
import { base64UrlToBytes, bytesToBase64Url } from "../auth/encoding.ts";
import type { Random } from "../clock.ts";
import type { Db } from "../db/database.ts";
import { serverSecrets } from "../db/schema/index.ts";
import { bootstrapStatus } from "../verbs/bootstrap/status.ts";

const SIGNING_KEY = "session_signing_key";

export class IdentityState {
  #key: Promise<Uint8Array> | undefined;
  #bootstrapped = false;
  #checkedAt = 0;

  readonly #random: Random;

  constructor(random: Random) {
    this.#random = random;
  }

  signingKey(db: Db): Promise<Uint8Array> {
    this.#key ??= this.#loadKey(db).catch((e: unknown) => {
      this.#key = undefined;
      throw e;
    });
    return this.#key;
  }

  async #loadKey(db: Db): Promise<Uint8Array> {
    await db
      .insert(serverSecrets)
      .values({ name: SIGNING_KEY, value: bytesToBase64Url(this.#random.bytes(32)) })
      .onConflictDoNothing();
    const [row] = await db.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, SIGNING_KEY));
    const key = row ? base64UrlToBytes(row.value) : null;
    if (!key) throw new Error("the session signing key could not be loaded");
    return key;
  }

  /** True once an administrator exists; a "not yet" answer is re-checked after a second. */
  async isBootstrapped(db: Db, nowMs: number): Promise<boolean> {
    if (this.#bootstrapped) return true;
    if (nowMs - this.#checkedAt < 1000 && this.#checkedAt > 0) return false;
    const { bootstrapped } = await bootstrapStatus({ ctx: { db } });
    this.#bootstrapped = bootstrapped;
    this.#checkedAt = nowMs;
    return bootstrapped;
  }

  markBootstrapped(): void {
    this.#bootstrapped = true;
  }
}
