// What a process hands the app and its workers: built once from validated configuration by an entry
// (bin/start.ts, bin/functions.ts, bin/worker.ts), never read from the environment below it.
// Web-standard types only, so both halves (and workerd) can type against it.
import type { Clock, Random } from "./clock.ts";
import type { Config } from "./config.ts";
import type { DatabaseAccess } from "./db/database.ts";
import type { HealthMonitor } from "./health.ts";
import type { CredentialCache } from "./identity/credential-cache.ts";
import type { IdentityState } from "./identity/identity-state.ts";
import type { Lifecycle } from "./lifecycle.ts";
import type { Logger } from "./logger.ts";
import type { RateLimiter } from "./ratelimit/limiter.ts";
import type { Vault } from "./vault/vault.ts";
import type { VaultKeyFile } from "./vault/key-file.ts";
import type { ImageResizer } from "./images/resizer.ts";
import type { Mailer } from "./net/mailer.ts";
import type { OutboundHttp } from "./net/outbound.ts";
import type { HostResolver } from "./net/resolved-host.ts";
import type { AgentBinarySource } from "./verbs/agents/binaries.ts";
import type { AcmeIssuer } from "./verbs/certificates/acme-issuer.ts";
import type { BackupStore } from "./verbs/backups/store.ts";
import type { CveFeedFiles } from "./verbs/cve/feed-files.ts";
import type { TlsReloader } from "./verbs/certificates/tls-reloader.ts";
import type { StatusPageCache } from "./status-pages/page-cache.ts";
import type { PageEventHub } from "./status-pages/page-events.ts";

/** Serves the documentation pages' scripts from installed packages (Node); absent on the edge. */
export type AssetLoader = (name: "scalar.js" | "redoc.js") => Promise<Uint8Array | undefined>;

/** One file of the built web UI (docs/web-ui.md). */
export interface WebFile {
  bytes: Uint8Array;
  contentType: string;
}

/** The built web UI by path relative to its directory (`index.html`, `assets/index-3f2a.js`). */
export type WebAppFiles = (path: string) => WebFile | undefined;

export interface Deps {
  config: Config;
  database: DatabaseAccess;
  health: HealthMonitor;
  /** Present only where a lifespan drives the process (spec 7.4.3). */
  lifecycle?: Lifecycle;
  clock: Clock;
  random: Random;
  logger: Logger;
  startedAt: Date;
  /** Signing key and first-run caches of this process. */
  identity: IdentityState;
  assets?: AssetLoader;
  /** The web UI served at / (Node, when WEB_DIR holds a build); absent on the edge, where Workers static assets serve it. */
  webApp?: WebAppFiles;
  /**
   * Successful credential resolutions remembered for a few seconds (Node, while its LISTEN on the
   * `credentials` channel is up); absent on the edge and when CREDENTIAL_CACHE_S is 0.
   */
  credentialCache?: CredentialCache;
  /**
   * The public status pages' answers, kept until a state change announced by NOTIFY (60 s at most), or
   * 1 s while no LISTEN stands behind them (the edge, a lost connection). docs/adr/0459.
   */
  statusPageCache?: StatusPageCache;
  /** The status pages' live update streams (Node: one LISTEN per process tells them); absent on the edge. */
  statusPageEvents?: PageEventHub;
  /** Per-route rate limits (spec 8.1), counting in Redis or the database, never in memory. */
  rateLimiter: RateLimiter;
  /** Secrets at rest (docs/architecture.md, API contracts): the installation's vault key, from SVC_VAULT_KEY or the data directory. */
  vault: Vault;
  /** The key file the vault's key came from (all-in-one with DATA_DIR/vault.key only): rotate in place. */
  vaultKeyFile?: VaultKeyFile;
  /** The agent builds under AGENT_BINARY_DIR (Node, when set); absent where no binaries are served. */
  agentBinaries?: AgentBinarySource;
  /** Every request to an operator-configured URL (integrations, notification sinks), under the SSRF policy. */
  outbound: OutboundHttp;
  /** Resolves a name to its addresses (Node, the system resolver), so a saved host is judged by them; absent on the edge. */
  resolveHost?: HostResolver;
  /** Sends through an operator's SMTP server (Node); absent on the edge, which has no SMTP sockets. */
  mailer?: Mailer;
  /** Scales uploaded images down (Node, sharp); absent on the edge, where uploads are stored as sent. */
  images?: ImageResizer;
  /** Issues certificates over ACME (Node, acme-client); absent on the edge, where letsencrypt certificates cannot be issued. */
  acme?: AcmeIssuer;
  /** Dumps the database into the backup directory (Node: pg_dump or PGlite); absent on the edge, whose database its provider backs up. */
  backups?: BackupStore;
  /** Opens CVE feed files for the import (Node, the file system); absent on the edge, where only URL feeds are read. */
  cveFeed?: CveFeedFiles;
  /** Reloads the HTTPS server's certificate (Node with SVC_TLS=on); absent where this process serves no HTTPS. */
  tls?: TlsReloader;
}
