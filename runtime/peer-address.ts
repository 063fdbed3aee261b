// The socket peer of a request served by @hono/node-server, for the rate limiter's client identity.
// Node-only (it reads the IncomingMessage), hence here and not in functions/.
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

export function nodePeerAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    // No Node socket behind this request (app.request() in tests): the peer is unknown.
    return undefined;
  }
}
