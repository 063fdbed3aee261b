// What a command that talks to a server needs: the chosen context's client and the kinds table, from
// the server's OpenAPI document cached under $XDG_CACHE_HOME/lab (refreshed after an hour, or at once
// when a kind is not found, so a server upgrade is picked up).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ApiClient } from "./client.ts";
import { cacheDir, resolveContext } from "./config.ts";
import { usageError } from "./exit.ts";
import { deriveKinds, findKind, type Kind } from "./kinds.ts";

const CACHE_MS = 60 * 60 * 1000;
export const OPENAPI_PATH = "/api/openapi.json";

export interface GlobalOptions {
  context?: string;
}

export class Session {
  private kindsCache: Kind[] | undefined;
  readonly client: ApiClient;
  readonly contextName: string;
  constructor(client: ApiClient, contextName: string) {
    this.client = client;
    this.contextName = contextName;
  }

  static open(opts: GlobalOptions): Session {
    const ctx = resolveContext(opts.context);
    return new Session(new ApiClient(ctx.url, ctx.token), ctx.name);
  }

  private cacheFile(): string {
    return join(cacheDir(), `openapi-${createHash("sha256").update(this.client.baseUrl).digest("hex").slice(0, 16)}.json`);
  }

  async kinds(fresh = false): Promise<Kind[]> {
    if (this.kindsCache && !fresh) return this.kindsCache;
    const file = this.cacheFile();
    let doc: unknown;
    if (!fresh) {
      try {
        if (Date.now() - statSync(file).mtimeMs < CACHE_MS) doc = JSON.parse(readFileSync(file, "utf8"));
      } catch {
        doc = undefined;
      }
    }
    if (!doc) {
      doc = (await this.client.get(OPENAPI_PATH)).body;
      try {
        mkdirSync(cacheDir(), { recursive: true, mode: 0o700 });
        writeFileSync(file, JSON.stringify(doc), { mode: 0o600 });
      } catch {
        // A cache that cannot be written only costs the next command a fetch.
      }
    }
    this.kindsCache = deriveKinds(doc as Parameters<typeof deriveKinds>[0]);
    return this.kindsCache;
  }

  async kind(word: string): Promise<Kind> {
    const found = findKind(await this.kinds(), word) ?? findKind(await this.kinds(true), word);
    if (!found) throw usageError(`unknown kind "${word}" (see \`lab kinds\`)`);
    return found;
  }
}
