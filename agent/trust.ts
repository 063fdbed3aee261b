// Which server key the agent trusts. Given one (--server-key, server_static_pk) it uses it; otherwise it
// reads SERVER_STATIC_PK from GET {server}/install-agent.sh once, prints the key's fingerprint for the
// operator to compare with the UI, and stores it (trust on first use: later runs use the stored key).
import { hexToBytes } from "@noble/hashes/utils.js";
import { keyFingerprint } from "../shared/domain/agents/fingerprint.ts";
import type { AgentLog } from "./log.ts";
import { type AgentState, isServerKeyHex, type ServerTrust } from "./state.ts";

/** The key's fingerprint as the server's status route shows it (shared/domain/agents/fingerprint.ts). */
export function fingerprintOf(publicKeyHex: string): string {
  return keyFingerprint(hexToBytes(publicKeyHex));
}

/** A GET: plain fetch, or the agent's pinned one (tls-pin.ts) when it pins the server's certificate. */
export type HttpGet = (url: URL) => Promise<Response>;

export async function fetchServerKey(serverUrl: string, timeoutMs = 10_000, get?: HttpGet): Promise<string> {
  const url = new URL("/install-agent.sh", serverUrl);
  const res = await (get ? get(url) : fetch(url, { signal: AbortSignal.timeout(timeoutMs) })).catch((e: Error) => {
    throw new Error(`cannot fetch the server key from ${url}: ${(e.cause as Error | undefined)?.message ?? e.message}`);
  });
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  const m = /^SERVER_STATIC_PK=['"]?([0-9a-f]{64})['"]?\s*$/m.exec(await res.text());
  if (!m) throw new Error("/install-agent.sh carries no SERVER_STATIC_PK line");
  return m[1]!;
}

/**
 * The trust record for `serverUrl`: the stored one when it is for that server (a --server-key that
 * differs from it replaces it), else a new one from the given or fetched key.
 */
export async function establishTrust(
  state: AgentState,
  serverUrl: string,
  givenKey: string | undefined,
  log: AgentLog,
  get?: HttpGet,
): Promise<ServerTrust> {
  if (givenKey !== undefined && !isServerKeyHex(givenKey)) throw new Error("the server key is 64 lowercase hex characters");
  const stored = state.server();
  if (stored && stored.url === serverUrl && (givenKey === undefined || givenKey === stored.current_pk || givenKey === stored.successor_pk))
    return stored;
  let key = givenKey;
  if (key === undefined) {
    key = await fetchServerKey(serverUrl, 10_000, get);
    log.warn(`trusting the server key of ${serverUrl} on first use: fingerprint ${fingerprintOf(key)} (compare with the UI)`);
  }
  const trust: ServerTrust = {
    url: serverUrl,
    current_pk: key,
    successor_pk: null,
    successor_expiry: null,
    agent_id: stored?.url === serverUrl ? stored.agent_id : null,
    status: stored?.url === serverUrl ? stored.status : null,
  };
  state.saveServer(trust);
  return trust;
}

/**
 * The keys to try for the next handshake, in order: a successor first, then the current key until the
 * successor's expiry (a successor that fails falls back to it); past the expiry only the successor.
 */
export function handshakeKeys(trust: ServerTrust, now: Date): string[] {
  if (trust.successor_pk === null) return [trust.current_pk];
  const expired = trust.successor_expiry !== null && Date.parse(trust.successor_expiry) <= now.getTime();
  return expired ? [trust.successor_pk] : [trust.successor_pk, trust.current_pk];
}

/** After a handshake with `key` worked: a successor that worked becomes the current key. */
export function promoteIfSuccessor(state: AgentState, trust: ServerTrust, key: string): ServerTrust {
  if (key !== trust.successor_pk) return trust;
  return state.updateServer({ current_pk: key, successor_pk: null, successor_expiry: null });
}
