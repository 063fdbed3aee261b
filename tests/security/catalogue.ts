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

/** Routes anyone may call (spec 4.2, 5.3, 5.4, 7.3, DESIGN.md 3b): probes, first-run status, sign-in flows, 410s, agent builds. */
const PUBLIC = new Set([
  ...["livez", "startupz", "readyz", "health"].map((p) => key("GET", `/api/v1/${p}`)),
  key("GET", "/api/v1/bootstrap/status"),
  key("POST", "/api/v1/bootstrap/initialize"),
  // Like /bootstrap/initialize: no credential yet, the setup token and the provider sign-in's token instead.
  key("POST", "/api/v1/bootstrap/initialize-oauth"),
  // DESIGN.md 3b: agent builds are fetched by the installer before the host holds any credential.
  key("GET", "/api/v1/agents/binary/{version}/{os_name}/{arch}"),
  // DESIGN.md 3b: the login page asks these before anyone signs in.
  key("GET", "/api/v1/security/status"),
  key("GET", "/api/v1/branding/manifest.json"),
  ...["login", "register", "demo", "accept-invite", "force-change-password", "mfa/verify", "jwt/login", "logout", "jwt/logout", "forgot-password", "reset-password", "vault-reset"].map((p) =>
    key("POST", `/api/v1/auth/${p}`),
  ),
]);

export function isPublic(op: CatalogueOp): boolean {
  return PUBLIC.has(key(op.method, op.path)) || op.group === "tenants" || op.group === "oauth";
}

/** Writes any signed-in user may make on their own account (a viewer is not refused them). */
const SELF_SERVICE = [
  /^POST \/api\/v1\/auth\/(api-token|mfa\/.+)$/,
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
