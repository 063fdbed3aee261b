// [agents-binary] GET /agents/binary/{version}/{os_name}/{arch}: an agent build, to anyone (the
// installer runs before the host has a credential; the build is public and checked by its SHA-256,
// which the answer's headers carry). Served by Node processes with AGENT_BINARY_DIR; elsewhere 404.
import type { Hono } from "hono";
import { ApiError } from "../../../shared/errors.ts";
import { bytesToBase64, hexToBytes } from "../../../shared/auth/encoding.ts";
import { BinaryParams } from "../../../shared/schemas/agents.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const NOT_FOUND = "Binary not found";

export function binaryRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/agents/binary/:version/:os_name/:arch",
      tag: "agents-binary",
      auth: "public",
      params: BinaryParams,
      response: {
        contentType: "application/octet-stream",
        description: "The build; X-Checksum-Sha256 (hex) and Repr-Digest carry its SHA-256",
      },
      summary: "Download an agent build (no credential needed)",
    },
    async (c, { params: p }) => {
      const source = c.get("deps").agentBinaries;
      if (!source)
        throw new ApiError(
          "RESOURCE_NOT_FOUND",
          `${NOT_FOUND}: this instance serves no agent binaries (AGENT_BINARY_DIR is not set here).`,
        );
      const found = await source.open(p.version, p.os_name, p.arch);
      if (!found) throw new ApiError("RESOURCE_NOT_FOUND", `${NOT_FOUND}: no build ${p.version} for ${p.os_name}/${p.arch}.`);
      const { binary, body } = found;
      const digest = bytesToBase64(hexToBytes(binary.sha256)!);
      return new Response(body, {
        status: 200,
        headers: {
          "Content-Type": "application/octet-stream",
          "Content-Length": String(binary.size),
          "Content-Disposition": `attachment; filename="svc-agent-${binary.version}-${binary.os}-${binary.arch}"`,
          "X-Checksum-Sha256": binary.sha256,
          "Repr-Digest": `sha-256=:${digest}:`,
          Digest: `sha-256=${digest}`,
          ETag: `"${binary.sha256}"`,
          "Cache-Control": "public, max-age=300",
          "X-Content-Type-Options": "nosniff",
        },
      });
    },
  );
}
