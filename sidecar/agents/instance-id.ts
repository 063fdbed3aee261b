// This sidecar's name among the sidecars sharing a database (agents.link_owner): host, process and a
// random part, so a restarted process on the same host and pid is still a new owner.
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";

export function newInstanceId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
}
