// The one `upgrade` listener of the HTTP server: WebSocket endpoints register their path here (UI
// streams now, agent links later), and an upgrade to any other path is answered 404 in the error
// envelope instead of being upgraded. Refusals before the upgrade are plain HTTP responses with the
// same JSON body as every other error.
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { ApiError } from "../../shared/errors.ts";
import { rawErrorResponse } from "../../runtime/client-error.ts";

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

export interface UpgradeRouter {
  /** Routes upgrades of exactly `path` (query string ignored) to `handler`. */
  add(path: string, handler: UpgradeHandler): void;
}

const tables = new WeakMap<Server, Map<string, UpgradeHandler>>();

function routesOf(server: Server): Map<string, UpgradeHandler> {
  const known = tables.get(server);
  if (known) return known;
  const routes = new Map<string, UpgradeHandler>();
  tables.set(server, routes);
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // A peer resetting mid-handshake must not become an unhandled 'error' that ends the process.
    socket.on("error", () => socket.destroy());
    const path = new URL(req.url ?? "/", "http://upgrade.invalid").pathname;
    const handler = routes.get(path);
    if (handler) handler(req, socket, head);
    else refuseUpgrade(socket, new ApiError("RESOURCE_NOT_FOUND", `No WebSocket endpoint at ${path}.`));
  });
  return routes;
}

export function upgradeRouter(server: Server): UpgradeRouter {
  const routes = routesOf(server);
  return { add: (path, handler) => void routes.set(path, handler) };
}

/** Answers the handshake with `error` as an HTTP response and closes the connection. */
export function refuseUpgrade(socket: Duplex, error: ApiError): void {
  if (!socket.writable) return void socket.destroy();
  socket.end(rawErrorResponse(error));
}
