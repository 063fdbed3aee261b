// What the rate-limit API tests share: a peer-address provider that reads the test's chosen socket
// peer from a header (app.request() has no socket), and a burst helper.
import type { Context, Hono } from "hono";
import type { AppEnv } from "../../../functions/deps.ts";

export const PEER_HEADER = "x-test-peer";

/** Stands in for the Node socket peer in app.request() tests; only tests install it. */
export const testPeer = (c: Context): string | undefined => c.req.header(PEER_HEADER);

export async function burst(
  app: Hono<AppEnv>,
  n: number,
  path: string,
  init: RequestInit & { peer?: string; headers?: Record<string, string> } = {},
) {
  const { peer, headers = {}, ...rest } = init;
  const statuses: number[] = [];
  let last: Response | undefined;
  for (let i = 0; i < n; i++) {
    last = await app.request(path, { method: "POST", ...rest, headers: { ...headers, ...(peer ? { [PEER_HEADER]: peer } : {}) } });
    statuses.push(last.status);
    if (i < n - 1) await last.arrayBuffer();
  }
  return { statuses, last: last! };
}

export const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;
