// Where agents reach this server, for the installer: PUBLIC_URL when set, else the request's own scheme
// and host (the X-Forwarded-Proto/-Host of a trusted proxy count). It goes into a shell script, so only
// a URL of plain characters is accepted (SERVER_URL_PATTERN).
import type { Context } from "hono";
import { ApiError } from "../../../shared/errors.ts";
import { endpointUrl } from "../../../shared/schemas/agents.ts";
import { SERVER_URL_PATTERN } from "../../../shared/verbs/agents/install-script.ts";
import type { AppEnv } from "../../deps.ts";

const first = (header: string | undefined) => header?.split(",")[0]?.trim() || undefined;

export function serverUrlOf(c: Context<AppEnv>): string {
  const configured = c.get("deps").config.PUBLIC_URL;
  if (configured) {
    const url = endpointUrl(configured);
    if (!url || !SERVER_URL_PATTERN.test(url))
      throw new ApiError(
        "SERVICE_NOT_READY",
        "PUBLIC_URL is not a plain http(s) URL (e.g. https://cp.example.net); the agent installer cannot be made.",
      );
    return url;
  }
  const request = new URL(c.req.url);
  const trusted = c.get("viaTrustedProxy") === true;
  const proto = (trusted && first(c.req.header("x-forwarded-proto"))) || request.protocol.replace(/:$/, "");
  const host = (trusted && first(c.req.header("x-forwarded-host"))) || request.host;
  const url = `${proto}://${host}`;
  if ((proto !== "http" && proto !== "https") || !SERVER_URL_PATTERN.test(url))
    throw new ApiError("BAD_REQUEST", "The request does not name a usable server address; set PUBLIC_URL to the URL agents should use.");
  return url;
}
