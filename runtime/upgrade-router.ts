// The one `upgrade` listener of the HTTP server: WebSocket workers register their path here (UI
// streams now, agent links later), and an upgrade to any other path is answered 404 in the error
// envelope instead of being upgraded. Refusals before the upgrade are plain HTTP responses with the
// same JSON body as every other error. The entry makes the router, hands it to the workers that take
// upgrades, and attaches it to its server once the process is ready.
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { ApiError } from "../shared/errors.ts";
import { rawErrorResponse } from "./client-error.ts";

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

export interface UpgradeRouter {
  /** Routes upgrades of exactly `path` (query string ignored) to `handler`. */
  add(path: string, handler: UpgradeHandler): void;
  /** Takes `server`'s upgrades from now on (call once). */
  attach(server: Server): void;
}

export function upgradeRouter(): UpgradeRouter {
  const routes = new Map<string, UpgradeHandler>();
  return {
    add: (path, handler) => void routes.set(path, handler),
    attach(server) {
      server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
        // A peer resetting mid-handshake must not become an unhandled 'error' that ends the process.
        socket.on("error", () => socket.destroy());
        const path = new URL(req.url ?? "/", "http://upgrade.invalid").pathname;
        const handler = routes.get(path);
        if (handler) handler(req, socket, head);
        else refuseUpgrade(socket, new ApiError("RESOURCE_NOT_FOUND", `No WebSocket endpoint at ${path}.`));
      });
    },
  };
}

/** Answers the handshake with `error` as an HTTP response and closes the connection. */
export function refuseUpgrade(socket: Duplex, error: ApiError): void {
  if (!socket.writable) return void socket.destroy();
  socket.end(rawErrorResponse(error));
}
