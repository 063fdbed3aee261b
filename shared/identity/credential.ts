// Credential resolution, for every transport that presents one: the HTTP middleware and the sidecar's
// WebSocket handshakes alike. A credential is a bearer header or the svc_session cookie (docs/architecture.md, API contracts).
import { timingSafeEqualString } from "../auth/constant-time.ts";
import type { Db } from "../db/database.ts";
import type { Deps } from "../deps.ts";
import { isApiToken, LEGACY_ACTOR, type Resolution, resolveApiToken, resolveSession } from "./resolve.ts";

export const SESSION_COOKIE = "svc_session";
export const CSRF_COOKIE = "svc_csrf";

/** What resolving a credential reads from the process. */
export type CredentialDeps = Pick<Deps, "config" | "clock" | "identity" | "credentialCache">;

/** The bearer credential of an Authorization header value, if it carries one. */
export function bearerCredential(header: string | undefined | null): string | undefined {
  return header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
}

/** Any presented credential (legacy static token, API token or session JWT) -> actor or refusal. */
export async function resolveCredential(deps: CredentialDeps, db: Db, credential: string): Promise<Resolution> {
  const now = deps.clock.now();
  const legacy = deps.config.SVC_API_TOKEN;
  if (legacy && timingSafeEqualString(credential, legacy))
    return deps.config.SVC_LEGACY_AUTH
      ? { actor: LEGACY_ACTOR }
      : { error: "The static SVC_API_TOKEN is deprecated and refused; create an API token instead." };
  const cache = deps.credentialCache;
  if (!cache?.live) return resolveFromDatabase(deps, db, credential, now);
  const key = cache.keyOf(credential);
  const remembered = cache.get(key, now.getTime());
  if (remembered) return { actor: remembered };
  const generation = cache.generation;
  const resolution = await resolveFromDatabase(deps, db, credential, now);
  if ("actor" in resolution && resolution.expiresAt !== undefined)
    cache.set(key, resolution.actor, resolution.expiresAt, generation, deps.clock.now().getTime());
  return resolution;
}

async function resolveFromDatabase(deps: CredentialDeps, db: Db, credential: string, now: Date): Promise<Resolution> {
  if (isApiToken(credential)) return resolveApiToken(db, credential, now);
  return resolveSession(db, await deps.identity.signingKey(db), credential, now);
}
