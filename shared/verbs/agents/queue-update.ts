// POST /agents/{id}/update {version?}: asks an active agent to install a build from AGENT_BINARY_DIR
// (the given version, else the newest built for its os/arch). The choice is stored in pending_update,
// which the sidecar sends as the `update` frame now (agent_control "update") or when the agent next links.
// `builds` is what this process serves (undefined where it serves none): verbs do not read files.
// Agents install only builds signed by the release key (shared/agents/release.ts), so without a release
// public key, or for an unsigned build, nothing is offered.
import { eq } from "drizzle-orm";
import { agents } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { defineVerb } from "../verb.ts";
import { requireAgent, requireStatus } from "./agent-row.ts";
import { type AgentBinary, pickBuild, platformOf } from "./binaries.ts";
import { auditAgent, recordAgentEvent, tellSidecar } from "./notify.ts";
import { ADMIN_AGENTS } from "./scopes.ts";

export const NO_BINARIES = "No agent binaries available on this instance";
export const NO_RELEASE_KEY = "No agent release key is configured on this instance";

/** 400 unless this instance can offer an update at all: builds served, and a release key they are signed with. */
export function requireOfferable(
  builds: readonly AgentBinary[] | undefined,
  releaseKey: string | undefined,
): asserts builds is readonly AgentBinary[] {
  if (!builds || builds.length === 0)
    throw new ApiError("BAD_REQUEST", `${NO_BINARIES}: place builds under AGENT_BINARY_DIR as <version>/<os>/<arch>/<file>.`);
  if (!releaseKey)
    throw new ApiError(
      "BAD_REQUEST",
      `${NO_RELEASE_KEY}: agents install only builds signed by the release key, so no update is offered. Set AGENT_RELEASE_PUBLIC_KEY, or build with the key (AGENT_RELEASE_KEY=FILE npm run build:agent), which writes release-key.pub beside the builds.`,
    );
}

export interface QueueUpdateInput {
  id: number;
  version?: string | undefined;
  builds: readonly AgentBinary[] | undefined;
  /** The release public key (64 hex) the builds are signed with; undefined when none is configured. */
  releaseKey: string | undefined;
}

export const queueAgentUpdate = defineVerb<QueueUpdateInput, { status: "queued"; version: string }>(
  { scope: ADMIN_AGENTS },
  async (s, { id, version, builds, releaseKey }) => {
    const agent = await requireAgent(s.tx, id, { forUpdate: true });
    requireStatus(agent, ["active"], "be updated");
    requireOfferable(builds, releaseKey);
    const platform = platformOf(agent);
    const build = pickBuild(builds, platform, version);
    if (!build)
      throw new ApiError(
        "RESOURCE_NOT_FOUND",
        `No agent build${version ? ` of version ${version}` : ""} for ${platform.os}/${platform.arch} on this instance.`,
      );
    if (!build.signature)
      throw new ApiError(
        "BAD_REQUEST",
        `Agent build ${build.version} for ${build.os}/${build.arch} is not signed (no ${build.file_name}.sig beside it): agents would refuse it. Build it with the release key.`,
      );
    const update = {
      version: build.version,
      sha256: build.sha256,
      signature: build.signature,
      os: build.os,
      arch: build.arch,
      queued_at: s.now.toISOString(),
    };
    await s.tx.update(agents).set({ pending_update: update, updated_at: s.now }).where(eq(agents.id, id));
    await recordAgentEvent(s, id, "update_queued", {
      version: build.version,
      from_version: agent.agent_version,
      os: build.os,
      arch: build.arch,
    });
    auditAgent(s, "update_queued", id, { from_version: agent.agent_version, ...update });
    tellSidecar(s, id, "update");
    return { status: "queued", version: build.version };
  },
);
