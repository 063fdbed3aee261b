// Which counter a request counts against (docs/architecture.md, API contracts, "Rate-limit buckets are per route"): one per
// (category, method + route pattern, client), as in the original, where each decorated endpoint counted
// on its own. Pure string work, no I/O.
import { type Category, GUARDS_A_SECRET } from "./policy.ts";

/** The route of a request no route answers (the 404): one bucket per method, so probing random paths is still limited. */
export const UNMATCHED = "<unmatched>";

/**
 * Categories that guard a secret keep one bucket per client across all their routes: a password or
 * code guesser would otherwise move between the routes and multiply its guesses. (mfa_verify is a single
 * route today; keying it by client keeps that true when a second verification route arrives.)
 */
const CLIENT_WIDE = GUARDS_A_SECRET;

export interface Bucket {
  category: Category;
  /** The store key: `auth:<client>`, or `<category>:<client>:<METHOD> <route pattern>`. */
  key: string;
}

/**
 * "GET /api/v1/hardware/:hardware_id" from the method and the matched route pattern, or "GET <unmatched>"
 * when no route matched. HEAD is answered by the GET route (hono dispatches it as GET), so it shares its bucket.
 */
export function routeName(method: string, pattern: string | undefined): string {
  const m = method.toUpperCase();
  return `${m === "HEAD" ? "GET" : m} ${pattern ?? UNMATCHED}`;
}

/**
 * The bucket of a request. A client identity (an address, a /64 or "unknown") holds no space, so the key
 * reads back unambiguously; a client's counters of one category share the prefix `<category>:<client>:`.
 */
export function bucketFor(category: Category, route: string, identity: string): Bucket {
  const key = CLIENT_WIDE.has(category) ? `${category}:${identity}` : `${category}:${identity}:${route}`;
  return { category, key };
}
