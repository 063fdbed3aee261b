// What a command that talks to a server needs: the chosen context's client and the kinds table, derived
// from the server's OpenAPI document and cached under $XDG_CACHE_HOME/lab (refreshed after an hour, or at
// once when a kind is not found, so a server upgrade is picked up). The table is what is cached, not the
// document: reading and deriving the 1.5 MB document took ~40 ms of every command (docs/adr/0503).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ApiClient } from "./client.ts";
import { cacheDir, resolveContext } from "./config.ts";
import { usageError } from "./exit.ts";
import { deriveKinds, findKind, type Kind } from "./kinds.ts";

const CACHE_MS = 60 * 60 * 1000;
/** Part of the cache file's name: a CLI whose Kind has other fields does not read an older table. */
const KINDS_FORMAT = 2;
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
    const server = createHash("sha256").update(this.client.baseUrl).digest("hex").slice(0, 16);
    return join(cacheDir(), `kinds-v${KINDS_FORMAT}-${server}.json`);
  }

  async kinds(fresh = false): Promise<Kind[]> {
    if (this.kindsCache && !fresh) return this.kindsCache;
    const file = this.cacheFile();
    let kinds: Kind[] | undefined;
    if (!fresh) {
      try {
        if (Date.now() - statSync(file).mtimeMs < CACHE_MS) kinds = JSON.parse(readFileSync(file, "utf8")) as Kind[];
      } catch {
        kinds = undefined;
      }
    }
    if (!kinds) {
      const doc = (await this.client.get(OPENAPI_PATH)).body;
      kinds = deriveKinds(doc as Parameters<typeof deriveKinds>[0]);
      try {
        mkdirSync(cacheDir(), { recursive: true, mode: 0o700 });
        writeFileSync(file, JSON.stringify(kinds), { mode: 0o600 });
      } catch {
        // A cache that cannot be written only costs the next command a fetch.
      }
    }
    this.kindsCache = kinds;
    return this.kindsCache;
  }

  async kind(word: string): Promise<Kind> {
    const found = findKind(await this.kinds(), word) ?? findKind(await this.kinds(true), word);
    if (!found) throw usageError(`unknown kind "${word}" (see \`lab kinds\`)`);
    return found;
  }
}
