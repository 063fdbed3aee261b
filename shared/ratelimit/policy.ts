// The per-route rate limits of spec 8.1: which category a request falls in, and how many requests each
// category allows per window under each profile. Pure data and string matching, no I/O.

export const CATEGORIES = ["auth", "ip_check", "mfa_verify", "scan", "telemetry", "default"] as const;
export type Category = (typeof CATEGORIES)[number];

/**
 * The categories that guard a secret (a password, an MFA code): each keeps one bucket per client across
 * its routes (bucket.ts), and its hits are counted in the fallback store when the main one fails
 * (limiter.ts), so a guesser is never let through uncounted.
 */
export const GUARDS_A_SECRET: ReadonlySet<Category> = new Set<Category>(["auth", "mfa_verify"]);

export const PROFILES = ["relaxed", "normal", "strict"] as const;
export type Profile = (typeof PROFILES)[number];
export const DEFAULT_PROFILE: Profile = "normal";

export interface Rule {
  /** Requests allowed per window. */
  limit: number;
  windowMs: number;
}

const MINUTE = 60_000;
const per = (limit: number, minutes: number): Rule => ({ limit, windowMs: minutes * MINUTE });

/** Spec 8.1, row by row. */
export const POLICY: Readonly<Record<Category, Readonly<Record<Profile, Rule>>>> = {
  auth: { relaxed: per(20, 1), normal: per(5, 1), strict: per(3, 1) },
  ip_check: { relaxed: per(30, 1), normal: per(10, 1), strict: per(5, 1) },
  mfa_verify: { relaxed: per(10, 15), normal: per(5, 15), strict: per(3, 15) },
  scan: { relaxed: per(5, 1), normal: per(1, 1), strict: per(1, 5) },
  telemetry: { relaxed: per(30, 1), normal: per(15, 1), strict: per(5, 1) },
  default: { relaxed: per(60, 1), normal: per(30, 1), strict: per(10, 1) },
};

/** The longest window of the table; the database store keeps counters at least twice this long. */
export const LONGEST_WINDOW_MS = Math.max(...CATEGORIES.flatMap((c) => PROFILES.map((p) => POLICY[c][p].windowMs)));

export function ruleFor(category: Category, profile: Profile): Rule {
  return POLICY[category][profile];
}

export function isProfile(value: unknown): value is Profile {
  return typeof value === "string" && (PROFILES as readonly string[]).includes(value);
}

const V1 = "/api/v1";

const AUTH_POSTS = new Set(
  [
    "/auth/login",
    "/auth/jwt/login",
    "/auth/register",
    "/auth/demo",
    "/auth/accept-invite",
    "/auth/force-change-password",
    "/auth/vault-reset",
    "/bootstrap/initialize",
    "/bootstrap/initialize-oauth",
  ].map((p) => V1 + p),
);

/** The OAuth start and callback routes and the code exchange (not the public provider list). */
const OAUTH_GETS = /^\/api\/v1\/auth\/(exchange|oauth\/(github|google|oidc\/[^/]+)(\/callback)?)$/;

const SCAN_POST_PATTERNS = [
  /^\/api\/v1\/discovery\/scan$/,
  /^\/api\/v1\/ipam\/scan\/[^/]+$/,
  /^\/api\/v1\/discovery\/profiles\/[^/]+\/run$/,
  /^\/api\/v1\/discovery\/jobs\/[^/]+\/enrich$/,
];

const IP_CHECK_PATHS = new Set([`${V1}/ip-check`, `${V1}/services/check-ip`]);

const TELEMETRY_PATTERNS = [/^\/api\/v1\/telemetry\/./, /^\/api\/v1\/hardware\/[^/]+\/telemetry/];

/** A trailing slash does not change the route: "/api/v1/auth/login/" is the login route. */
function normalise(path: string): string {
  return path.length > 1 && path.endsWith("/") ? path.replace(/\/+$/, "") : path;
}

/** The category of a request under /api/ (spec 8.1). Matching is exact on method and path. */
export function categoryFor(method: string, rawPath: string): Category {
  const path = normalise(rawPath);
  const post = method.toUpperCase() === "POST";
  if (post && AUTH_POSTS.has(path)) return "auth";
  if (method.toUpperCase() === "GET" && OAUTH_GETS.test(path)) return "auth";
  if (post && path === `${V1}/auth/mfa/verify`) return "mfa_verify";
  if (IP_CHECK_PATHS.has(path)) return "ip_check";
  if (post && SCAN_POST_PATTERNS.some((p) => p.test(path))) return "scan";
  if (TELEMETRY_PATTERNS.some((p) => p.test(path))) return "telemetry";
  return "default";
}

const STATUS_PAGE_SUMMARY = /^\/api\/v1\/status-pages\/[^/]+\/summary$/;
const SKIPPED = new Set(["livez", "startupz", "readyz", "health"].map((p) => `${V1}/${p}`));

/**
 * The probes and the metrics scrape are never limited; they are skipped by name (spec 8.2.3). Pushes to
 * heartbeat monitors are limited per token by their route instead (functions/routes/monitors/push-routes.ts):
 * one host may push for thousands of monitors, so a per-client bucket would be the wrong one. A public
 * status page's JSON twin is served from the page cache, as its HTML page outside /api is (docs/adr/0459):
 * counting it would cost a store write per answer that costs no query.
 */
export function isSkipped(rawPath: string): boolean {
  const path = normalise(rawPath);
  if (SKIPPED.has(path)) return true;
  if (path.startsWith(`${V1}/push/`)) return true;
  if (path.startsWith(`${V1}/health/`)) return true;
  if (STATUS_PAGE_SUMMARY.test(path)) return true;
  return path.startsWith(`${V1}/metrics`);
}
