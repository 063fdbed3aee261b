// Every environment variable the service reads, parsed and validated once at start.
// docs/configuration.md lists the same variables; keep the two in step.
import * as v from "valibot";
import { isIpOrCidr } from "./net/cidr.ts";

const bool = (fallback: boolean) =>
  v.pipe(
    v.optional(v.picklist(["true", "false", "1", "0", "yes", "no"], "expects true or false"), fallback ? "true" : "false"),
    v.transform((s) => s === "true" || s === "1" || s === "yes"),
  );

const int = (fallback: number, min: number, max: number) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.regex(/^\d+$/, `expects a whole number from ${min} to ${max}`),
    v.transform(Number),
    v.minValue(min, `expects a whole number from ${min} to ${max}`),
    v.maxValue(max, `expects a whole number from ${min} to ${max}`),
  );

const optionalString = v.pipe(
  v.optional(v.string()),
  v.transform((s) => (s === undefined || s.trim() === "" ? undefined : s.trim())),
);

const url = (schemes: string[]) =>
  v.pipe(
    optionalString,
    v.check(
      (s) => s === undefined || schemes.some((p) => s.startsWith(`${p}://`)),
      `expects a URL starting with ${schemes.map((p) => `${p}://`).join(" or ")}`,
    ),
  );

const cidrList = v.pipe(
  v.optional(v.string(), ""),
  v.transform((s) =>
    s
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean),
  ),
  v.check((list) => list.every(isIpOrCidr), "expects a comma-separated list of IP addresses or CIDR ranges"),
);

export const ConfigSchema = v.object({
  PORT: int(8080, 0, 65535),
  HOST: v.optional(v.string(), "0.0.0.0"),
  DATA_DIR: v.optional(v.string(), "./data"),
  /** The built web UI served at / (docs/web-ui.md); the repository's web/dist when unset. No UI when the directory is absent. */
  WEB_DIR: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** Where database backups are written (docs/backups.md); <DATA_DIR>/backups when unset. */
  BACKUP_DIR: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** ACME directories (docs/acme.md): production and staging (Let's Encrypt by default), an optional contact. */
  SVC_ACME_DIRECTORY_URL: v.optional(url(["https", "http"]), "https://acme-v02.api.letsencrypt.org/directory"),
  SVC_ACME_STAGING_DIRECTORY_URL: v.optional(url(["https", "http"]), "https://acme-staging-v02.api.letsencrypt.org/directory"),
  SVC_ACME_EMAIL: v.optional(v.pipe(v.string(), v.email())),
  /** A PEM file of CA certificates trusted for the ACME directory's own TLS only (a private or test CA). */
  SVC_ACME_CA_FILE: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** The Cloudflare v4 API dns-01 records are written through (docs/acme.md); reached under the outbound policy. */
  SVC_CLOUDFLARE_API_URL: v.optional(url(["https", "http"]), "https://api.cloudflare.com/client/v4"),
  /** How long a dns-01 order waits for the zone's authoritative servers to answer the TXT record (0: no check). */
  SVC_ACME_DNS_PROPAGATION_S: int(60, 0, 600),
  /** HTTPS with the active certificate (docs/certificates.md): on | off; plain HTTP on PORT is served either way. */
  SVC_TLS: v.pipe(
    v.optional(v.picklist(["on", "off", "true", "false", "1", "0", "yes", "no"], "expects on or off"), "off"),
    v.transform((s) => s === "on" || s === "true" || s === "1" || s === "yes"),
  ),
  SVC_HTTPS_PORT: int(8443, 0, 65535),
  /** The name of the self-signed certificate generated when TLS is on and none is active (default: localhost). */
  SVC_TLS_DOMAIN: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(253)), "localhost"),
  DATABASE_URL: url(["postgres", "postgresql"]),
  DB_POOL_MAX: int(10, 1, 200),
  REDIS_URL: url(["redis", "rediss"]),
  APP_VERSION: optionalString,
  DEV_MODE: bool(false),
  LOG_LEVEL: v.optional(v.picklist(["debug", "info", "warn", "error"], "expects debug, info, warn or error"), "info"),
  TRUSTED_PROXIES: cidrList,
  MAX_BODY_BYTES: int(1_048_576, 1024, 104_857_600),
  MAX_UPLOAD_BYTES: int(8_388_608, 1024, 1_073_741_824),
  // The body limit of POST /admin/import alone: an inventory document of 100,000 objects is ~40 MB.
  MAX_IMPORT_BYTES: int(268_435_456, 1024, 2_147_483_647),
  DRAIN_TIMEOUT_S: int(25, 0, 600),
  // After SIGTERM the listener stays open this long (within DRAIN_TIMEOUT_S), so load balancers that still
  // send here see readyz 503 and stop while every new connection is answered (docs/adr/0346).
  DRAIN_WINDOW_S: int(5, 0, 600),
  // How long a client may take to send a request's headers before Node answers 408 (at most its 300 s request timeout).
  HEADERS_TIMEOUT_S: int(60, 1, 300),
  KEEP_ALIVE_TIMEOUT_S: int(65, 1, 600),
  HEALTH_CACHE_MS: int(2000, 0, 60_000),
  // How long a process may reuse a successful credential lookup (0: look every request up).
  CREDENTIAL_CACHE_S: int(10, 0, 300),
  RATE_LIMIT_RPM: int(600, 1, 1_000_000),
  // Unset: redis when REDIS_URL is set, else database. "memory" is listed only to be refused by name.
  RATE_LIMIT_STORE: v.optional(v.picklist(["redis", "database", "memory"], "expects redis or database")),
  SVC_SETUP_TOKEN: optionalString,
  SVC_API_TOKEN: optionalString,
  SVC_LEGACY_AUTH: bool(false),
  /** The vault key, base64 of 32 bytes (docs/architecture.md, API contracts); required by a split deployment. */
  SVC_VAULT_KEY: optionalString,
  /** Earlier vault keys, comma-separated, that still open values written before a rotation. */
  SVC_VAULT_KEY_PREVIOUS: optionalString,
  /** Where an operator places agent builds, served at /agents/binary/{version}/{os}/{arch} (spec 4.4). */
  AGENT_BINARY_DIR: optionalString,
  /**
   * The agent release public key (64 hex, Ed25519) builds are signed with (docs/agents.md, Release key);
   * unset: AGENT_BINARY_DIR/release-key.pub, which `npm run build:agent` writes. No update is offered without one.
   */
  AGENT_RELEASE_PUBLIC_KEY: v.optional(
    v.pipe(v.string(), v.trim(), v.toLowerCase(), v.regex(/^[0-9a-f]{64}$/, "expects the release public key as 64 hex characters")),
  ),
  /** The URL agents are told to reach this server at (install script); else taken from the request. */
  PUBLIC_URL: optionalString,
  WS_REQUIRE_WSS: bool(false),
  /** Agent link handshakes one sidecar admits per 10 s from all addresses (the enroll gate stays 200 per 60 s). */
  AGENT_LINK_GLOBAL_RATE: int(1000, 1, 1_000_000),
  /** Notifications: attempts per delivery before the dead letter, the wait that groups dependent failures, one request's timeout. */
  NOTIFICATION_MAX_ATTEMPTS: int(5, 1, 50),
  NOTIFICATION_GROUPING_DELAY_S: int(10, 0, 600),
  NOTIFICATION_TIMEOUT_MS: int(10_000, 100, 120_000),
  /** How long POST /notifications/sinks/{id}/test waits for the worker's attempt before answering pending (0: not at all). */
  NOTIFICATION_TEST_WAIT_MS: int(20_000, 0, 120_000),
  /** Where discovery scans may reach: comma-separated CIDRs (default the private, CGNAT and loopback ranges). */
  SVC_DISCOVERY_ALLOWED_TARGETS: optionalString,
  /** Server-side discovery jobs one sidecar runs at once (they share its 512-socket budget). */
  SVC_DISCOVERY_CONCURRENCY: int(2, 1, 16),
});

export type RateLimitStoreKind = "redis" | "database";

export type Config = Omit<v.InferOutput<typeof ConfigSchema>, "RATE_LIMIT_STORE"> & {
  RATE_LIMIT_STORE: RateLimitStoreKind;
  version: string;
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * Parses the raw environment. On a bad value it throws a ConfigError whose message is one line naming
 * the variable and what it expects, which the entry prints before exiting.
 */
export function parseConfig(env: Record<string, string | undefined>, fileVersion?: string): Config {
  const known = Object.fromEntries(
    Object.keys(ConfigSchema.entries)
      .filter((k) => env[k] !== undefined)
      .map((k) => [k, env[k]]),
  );
  const result = v.safeParse(ConfigSchema, known);
  if (!result.success) {
    const issue = result.issues[0];
    const name = issue.path?.map((p) => String(p.key)).join(".") ?? "configuration";
    const got = typeof issue.input === "string" ? ` (got "${issue.input.slice(0, 60)}")` : "";
    throw new ConfigError(`invalid configuration: ${name} ${issue.message}${got}`);
  }
  const version = result.output.APP_VERSION ?? fileVersion?.trim() ?? "0.0.0-unknown";
  return { ...result.output, RATE_LIMIT_STORE: rateLimitStore(result.output), version };
}

/** Spec 8.1.1: the counters must be shared and external, so an in-process store stops the start. */
function rateLimitStore(c: v.InferOutput<typeof ConfigSchema>): RateLimitStoreKind {
  if (c.RATE_LIMIT_STORE === "memory")
    throw new ConfigError(
      "invalid configuration: RATE_LIMIT_STORE=memory is refused: rate-limit counters must be shared by every instance (spec 8.1.1); use redis (with REDIS_URL) or database",
    );
  if (c.RATE_LIMIT_STORE === "redis" && !c.REDIS_URL)
    throw new ConfigError("invalid configuration: RATE_LIMIT_STORE=redis expects REDIS_URL to be set");
  return c.RATE_LIMIT_STORE ?? (c.REDIS_URL ? "redis" : "database");
}
