// The spec's catalogue (spec/catalogue.tsv, a copy of the specification's) and the access classes the security suite checks
// every catalogued route against.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface CatalogueOp {
  method: string;
  path: string;
  group: string;
}

const CATALOGUE = fileURLToPath(new URL("../../spec/catalogue.tsv", import.meta.url));

export function readCatalogue(): CatalogueOp[] {
  return readFileSync(CATALOGUE, "utf8")
    .split("\n")
    .slice(1)
    .filter((l) => l.trim())
    .map((l) => {
      const [method, path, group] = l.split("\t");
      return { method: method!, path: path!, group: group! };
    });
}

const key = (method: string, path: string) => `${method} ${path}`;

/** Routes anyone may call (spec 4.2, 5.3, 5.4, 7.3, docs/architecture.md, API contracts): probes, first-run status, sign-in flows, 410s, agent builds. */
const PUBLIC = new Set([
  ...["livez", "startupz", "readyz", "health"].map((p) => key("GET", `/api/v1/${p}`)),
  key("GET", "/api/v1/bootstrap/status"),
  key("POST", "/api/v1/bootstrap/initialize"),
  // Like /bootstrap/initialize: no credential yet, the setup token and the provider sign-in's token instead.
  key("POST", "/api/v1/bootstrap/initialize-oauth"),
  // docs/architecture.md, API contracts: agent builds are fetched by the installer before the host holds any credential.
  key("GET", "/api/v1/agents/binary/{version}/{os_name}/{arch}"),
  // docs/architecture.md, API contracts: the login page asks these before anyone signs in.
  key("GET", "/api/v1/security/status"),
  key("GET", "/api/v1/branding/manifest.json"),
  // docs/adr/0439: a heartbeat monitor's push URL; its token is the credential (a cron job's curl has no other).
  key("GET", "/api/v1/push/{token}"),
  key("POST", "/api/v1/push/{token}"),
  // docs/adr/0454: a published status page's JSON twin is for anyone (a draft is a 404).
  key("GET", "/api/v1/status-pages/{slug}/summary"),
  // docs/adr/0458: subscribing to a published page (rate-limited, always the same 202), and the subscription's
  // signed confirm and unsubscribe links, whose token is the credential.
  key("POST", "/api/v1/status-pages/{slug}/subscribers"),
  ...["confirm", "unsubscribe"].flatMap((p) => ["GET", "POST"].map((m) => key(m, `/api/v1/status-pages/subscriptions/${p}/{token}`))),
  // docs/adr/0457: its incident history's JSON twin likewise (published incidents only).
  key("GET", "/api/v1/status-pages/{slug}/history"),
  // docs/adr/0455: SVG badges of monitors made badge-public, for READMEs and dashboards; any other id is one 404.
  ...["status", "uptime", "response-time", "cert-expiry"].map((b) => key("GET", `/api/v1/badges/monitors/{monitor_id}/${b}.svg`)),
  // docs/adr/0461: SVG badges of a published status page's items; a draft's item or an unknown key is the same 404.
  ...["status", "uptime", "response-time", "cert-expiry"].map((b) =>
    key("GET", `/api/v1/badges/status-pages/{slug}/items/{item_key}/${b}.svg`),
  ),
  // docs/adr/0447: a delivered message's signed acknowledge link; its token is the credential.
  // docs/adr/0500: the lab file format's JSON Schema, for editors (it describes the format, no data).
  key("GET", "/api/v1/config/schema.json"),
  // docs/adr/0504: the CLI's sign-in code exchange; the code and its PKCE verifier are the credential.
  key("POST", "/api/v1/auth/cli-login/token"),
  key("GET", "/api/v1/ack/{token}"),
  key("POST", "/api/v1/ack/{token}"),
  ...[
    "login",
    "register",
    "demo",
    "accept-invite",
    "force-change-password",
    "mfa/verify",
    "jwt/login",
    "logout",
    "jwt/logout",
    "forgot-password",
    "reset-password",
    "vault-reset",
  ].map((p) => key("POST", `/api/v1/auth/${p}`)),
]);

export function isPublic(op: CatalogueOp): boolean {
  return PUBLIC.has(key(op.method, op.path)) || op.group === "tenants" || op.group === "oauth";
}

/** Writes any signed-in user may make on their own account (a viewer is not refused them). */
const SELF_SERVICE = [
  /^POST \/api\/v1\/auth\/(api-token|mfa\/.+|cli-login\/(approve|deny))$/,
  /^(DELETE|POST) \/api\/v1\/auth\/api-tokens\/\{token_id\}(\/rotate)?$/,
  /^(DELETE|PUT) \/api\/v1\/auth\/me(\/avatar)?$/,
  /^(PATCH|DELETE) \/api\/v1\/users\/me(\/password|\/sessions(\/\{session_id\})?)?$/,
];

export function isSelfService(op: CatalogueOp): boolean {
  return SELF_SERVICE.some((r) => r.test(key(op.method, op.path)));
}

export function isWrite(op: CatalogueOp): boolean {
  return ["POST", "PUT", "PATCH", "DELETE"].includes(op.method);
}

/** A concrete URL for a catalogue path: every parameter becomes 1. */
export function concretePath(path: string): string {
  return path.replace(/\{[^}]+\}/g, "1");
}

/**
 * One object of each kind the intelligence reads can name, all with id 1 so concretePath reaches them,
 * and linked (compute unit and storage on the hardware node, service in the compute unit) so a walk
 * from any of them meets the others. `marker` is a name no other fixture uses: a JSON object whose
 * `name` is the marker is that object. `scope` is the read scope of its kind.
 */
export const KIND_FIXTURES = [
  { kind: "hardware", scope: "read:hardware", marker: "zz-security-suite-hardware" },
  { kind: "compute_unit", scope: "read:compute", marker: "zz-security-suite-compute-unit" },
  { kind: "service", scope: "read:services", marker: "zz-security-suite-service" },
  { kind: "storage", scope: "read:storage", marker: "zz-security-suite-storage" },
] as const;

export type KindFixture = (typeof KIND_FIXTURES)[number];

/** The URLs a read check calls for a catalogue path: one per kind where the path takes an {asset_type}. */
export function concretePathsByKind(path: string): string[] {
  if (!path.includes("{asset_type}")) return [concretePath(path)];
  return KIND_FIXTURES.map((f) => concretePath(path.replace("{asset_type}", f.kind)));
}

/**
 * The fixtures answered as objects anywhere in a JSON answer: objects whose `name` is a marker. A
 * denormalised label of a referenced row (`hardware_name` on a compute unit) is not the object itself.
 */
export function fixturesAnswered(body: unknown): KindFixture[] {
  const found = new Set<KindFixture>();
  const stack: unknown[] = [body];
  // Bounded: an answer is a finite tree and each node is visited once.
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (node && typeof node === "object") {
      const named = KIND_FIXTURES.find((f) => (node as { name?: unknown }).name === f.marker);
      if (named) found.add(named);
      stack.push(...Object.values(node));
    }
  }
  return [...found];
}

/**
 * Reads known to answer objects of kinds outside their scope, reported and not yet fixed: the check is
 * skipped for them, naming why, so the list shrinks as they are fixed (delete the entry with the fix).
 */
export const KNOWN_CROSS_KIND_READS: ReadonlyMap<string, string> = new Map([]);
