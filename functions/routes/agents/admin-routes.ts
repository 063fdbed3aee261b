// [agents] administration of enrollment: the install command and the server's Noise key (status, the
// agents still on the old key during a rotation, and starting a rotation; server-key.ts does the work).
import type { Hono } from "hono";
import { ApiError } from "../../../shared/errors.ts";
import {
  endpointUrl,
  InstallCommand,
  InstallCommandQuery,
  ServerKeyPendingAgents,
  ServerKeyStatus,
} from "../../../shared/schemas/agents.ts";
import { agentInstallCommand } from "../../../shared/verbs/agents/install.ts";
import { pendingServerKeyAgents, rotateServerKey, serverKeyStatus } from "../../../shared/verbs/agents/server-key.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { serverUrlOf } from "./server-url.ts";

const V1 = "/api/v1/agents";

export function adminRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: `${V1}/install-command`,
      tag: "agents",
      scope: agentInstallCommand.scope,
      query: InstallCommandQuery,
      response: { schema: InstallCommand },
      errors: [400, 503],
      summary: "The command that installs and enrolls an agent on a host",
      description:
        "`endpoint`: the URL the host reaches this server at (default PUBLIC_URL, else this request's). `tls_mode` public (default for https: piped to sh) " +
        "or self_signed (saved, checked against `script_sha256`, downloads without TLS verification); plain http answers tls_mode none (saved and checked). " +
        "The checksum is of the script as served now: it changes when the builds or the server key do.",
    },
    async (c, { query, reply }) => {
      const deps = c.get("deps");
      const fetchUrl = query.endpoint ? endpointUrl(query.endpoint)! : serverUrlOf(c);
      const https = fetchUrl.startsWith("https:");
      if (query.tls_mode && !https)
        throw ApiError.validation([
          {
            loc: ["query", "tls_mode"],
            msg: `${query.tls_mode} describes an https endpoint; ${fetchUrl} is plain http.`,
            type: "value_error",
          },
        ]);
      const tlsMode = query.tls_mode ?? (https ? "public" : "none");
      const serverUrl = deps.config.PUBLIC_URL ? serverUrlOf(c) : fetchUrl;
      const builds = (await deps.agentBinaries?.list()) ?? [];
      const releaseKey = await deps.agentBinaries?.releaseKey();
      return reply(await agentInstallCommand({ ctx: verbContext(c), input: { serverUrl, fetchUrl, tlsMode, builds, releaseKey } }));
    },
  );

  route(
    app,
    {
      method: "get",
      path: `${V1}/server-key/status`,
      tag: "agents",
      scope: serverKeyStatus.scope,
      response: { schema: ServerKeyStatus },
      summary: "The server's Noise static key and any rotation in progress",
    },
    async (c, { reply }) => reply(await serverKeyStatus({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "get",
      path: `${V1}/server-key/pending`,
      tag: "agents",
      scope: pendingServerKeyAgents.scope,
      response: { schema: ServerKeyPendingAgents },
      summary: "Agents not yet on the successor key during a rotation (at most 200; [] when none is running)",
    },
    async (c, { reply }) => reply(await pendingServerKeyAgents({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "post",
      path: `${V1}/server-key/rotate`,
      tag: "agents",
      scope: rotateServerKey.scope,
      response: { status: 201, schema: ServerKeyStatus },
      errors: [409, 503],
      summary: "Start a rotation of the server's Noise key (409 while one is running)",
    },
    async (c, { reply }) => reply(await rotateServerKey({ ctx: verbContext(c) })),
  );
}
