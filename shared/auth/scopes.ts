// Built-in roles and their scopes (spec 5.2), and the wildcard rules every permission check uses.
// A scope is `<action>:<resource>`; `<action>:*` covers every resource of that action, `*:*` covers everything.

export type BuiltInRole = "viewer" | "demo" | "editor" | "admin";

/** The actions a `*` in the action position stands for. */
export const SCOPE_ACTIONS = ["read", "write", "delete", "admin"] as const;

export const ROLE_SCOPES: Readonly<Record<BuiltInRole, readonly string[]>> = {
  viewer: ["read:*"],
  demo: ["read:*"],
  editor: [
    "read:*",
    "write:hardware",
    "write:services",
    "write:networks",
    "write:clusters",
    "write:external",
    "write:compute",
    "write:storage",
    "write:misc",
    "write:docs",
    "write:graph",
    "write:layout",
  ],
  admin: ["read:*", "write:*", "delete:*", "admin:*"],
};

/**
 * What lets an API token create or rotate API tokens: a narrower scope (not in the spec's grantable
 * list). A signed-in person may always mint tokens for themself, so every role may grant it; a token
 * holds it only when it was given it (or a wildcard covering it), see docs/adr/0320.
 */
export const MINT_TOKENS_SCOPE = "write:tokens";

/** What a token may be given (served by GET /api/v1/auth/scopes). */
export const GRANTABLE_SCOPES: readonly string[] = ["read:*", "write:*", "delete:*", "admin:*", "write:telemetry", "*:*"];

/** viewer < editor < admin; demo is read-only and ranks with viewer. */
export const ROLE_RANK: Readonly<Record<BuiltInRole, number>> = { viewer: 0, demo: 0, editor: 1, admin: 2 };

export function isBuiltInRole(name: string): name is BuiltInRole {
  return typeof name === "string" && Object.hasOwn(ROLE_RANK, name);
}

export function isGrantableScope(scope: string): boolean {
  return GRANTABLE_SCOPES.includes(scope);
}

const SCOPE = /^(\*|[a-z][a-z0-9_-]*):(\*|[a-z][a-z0-9_.-]*)$/;

function split(scope: string): [string, string] | null {
  const m = typeof scope === "string" ? SCOPE.exec(scope) : null;
  return m ? [m[1]!, m[2]!] : null;
}

/**
 * True when `granted` covers `required`. Exact match, `<action>:*` for any resource of that action, `*:<resource>`
 * for that resource under any action, `*:*` for anything. A required wildcard needs a grant at least as wide: `write:*` needs `write:*` (or `*:*`), and `*:*`
 * (or `*:x`) needs every action covered, so admin's `read:* write:* delete:* admin:*` counts as `*:*`.
 * Malformed scopes allow nothing and are allowed by nothing.
 */
export function scopeAllows(granted: readonly string[], required: string): boolean {
  const req = split(required);
  if (!req) return false;
  const [action, resource] = req;
  if (action === "*") return SCOPE_ACTIONS.every((a) => scopeAllows(granted, `${a}:${resource}`));
  for (const scope of granted) {
    const g = split(scope);
    if (!g) continue;
    if ((g[0] === "*" || g[0] === action) && (g[1] === "*" || g[1] === resource)) return true;
  }
  return false;
}

/** True when every requested scope is allowed by `granted`: a token is never wider than its creator. */
export function scopesWithin(requested: readonly string[], granted: readonly string[]): boolean {
  return requested.every((scope) => scopeAllows(granted, scope));
}
