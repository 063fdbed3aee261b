// GET /install-agent.sh (spec 4.6: outside /api and the OpenAPI document; docs/architecture.md, API contracts: public). The
// installer for this server: its URL, its Noise static key and the SHA-256 of each build it may fetch.
// Never cached: it changes when builds are added or the key rotates.
import type { Hono } from "hono";
import { agentInstallScript } from "../../shared/verbs/agents/install.ts";
import { verbContext } from "../context.ts";
import type { AppEnv } from "../deps.ts";
import { serverUrlOf } from "./agents/server-url.ts";

export function installScriptRoutes(app: Hono<AppEnv>): void {
  app.get("/install-agent.sh", async (c) => {
    const deps = c.get("deps");
    const builds = (await deps.agentBinaries?.list()) ?? [];
    const releaseKey = await deps.agentBinaries?.releaseKey();
    const { script, sha256 } = await agentInstallScript({ ctx: verbContext(c), input: { serverUrl: serverUrlOf(c), builds, releaseKey } });
    return c.body(script, 200, {
      "Content-Type": "text/x-shellscript; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Checksum-Sha256": sha256,
      "X-Content-Type-Options": "nosniff",
    });
  });
}
