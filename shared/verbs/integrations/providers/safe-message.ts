// What of a provider call's failure may be shown: shared by the config test, the hv connection test, guest
// actions and the monitoring sync.
import { DockerError } from "../../discovery/docker/docker-engine.ts";
import { ApiError } from "../../../errors.ts";
import { OutboundError } from "../../../net/outbound.ts";
import { PveError } from "../hv/pve-client.ts";

/** An error's message when it is one we wrote to be shown (never a response body or a credential). */
export function safeMessage(e: unknown): string {
  if (e instanceof OutboundError || e instanceof DockerError || e instanceof PveError) return e.message;
  if (e instanceof ApiError && typeof e.detail === "string") return e.detail;
  if (e instanceof Error && e.name === "VaultError") return "The stored credential cannot be opened with this vault key.";
  return "Unexpected error while contacting the provider.";
}
