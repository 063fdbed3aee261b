// The providers' key sets (JWKS), cached per jwks_uri and process for as long as the provider's
// Cache-Control max-age says, bounded to 5 minutes .. 24 hours (a withdrawn key stops verifying at the
// latest when the set expires). A `kid` not in a fresh set refetches it at once (the provider rotated),
// but at most once per cooldown, so tokens with made-up kids cannot make us hammer the provider.
import type { JSONWebKeySet } from "jose";
import { fetchJsonWithHeaders, type ProviderHttp, upstreamFailed } from "./http.ts";

export const MIN_CACHE_MS = 5 * 60_000;
export const MAX_CACHE_MS = 24 * 60 * 60_000;
export const REFETCH_COOLDOWN_MS = 30_000;

interface Entry {
  set: JSONWebKeySet;
  fetchedAt: number;
  expiresAt: number;
}

const cache = new Map<string, Entry>();

/** How long a key set may be kept: its max-age (s-maxage ignored: we are not a shared cache), bounded. */
export function cacheLifetimeMs(cacheControl: string | undefined): number {
  const maxAge = /(?:^|[,\s])max-age\s*=\s*"?(\d{1,10})"?/i.exec(cacheControl ?? "");
  const ms = maxAge ? Number(maxAge[1]) * 1000 : 0;
  return Math.min(MAX_CACHE_MS, Math.max(MIN_CACHE_MS, ms));
}

async function fetchSet(h: ProviderHttp, uri: string, now: number): Promise<Entry> {
  const { body, headers } = await fetchJsonWithHeaders<JSONWebKeySet>(h, "key set", uri);
  if (!body || !Array.isArray(body.keys)) throw upstreamFailed(h, "key set");
  const entry = { set: body, fetchedAt: now, expiresAt: now + cacheLifetimeMs(headers["cache-control"]) };
  cache.set(uri, entry);
  return entry;
}

/** The key set to verify with now: the cached one while fresh, else fetched. `fresh` says it was just fetched. */
export async function currentKeySet(h: ProviderHttp, uri: string, now: Date): Promise<{ set: JSONWebKeySet; fresh: boolean }> {
  const cached = cache.get(uri);
  if (cached && cached.expiresAt > now.getTime()) return { set: cached.set, fresh: false };
  return { set: (await fetchSet(h, uri, now.getTime())).set, fresh: true };
}

/** After an unknown kid: the set fetched again, or null while the last fetch is within the cooldown. */
export async function refetchKeySet(h: ProviderHttp, uri: string, now: Date): Promise<JSONWebKeySet | null> {
  const cached = cache.get(uri);
  const since = cached ? now.getTime() - cached.fetchedAt : Infinity;
  // A clock stepped back (since < 0) does not lock a rotation out.
  if (since >= 0 && since < REFETCH_COOLDOWN_MS) return null;
  return (await fetchSet(h, uri, now.getTime())).set;
}
