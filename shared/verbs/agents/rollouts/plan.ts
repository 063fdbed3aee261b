// What a rollout is made of, decided when it is created (docs/adr/0429): the version, each agent's build
// for its own os/arch (or why it is skipped), and the waves: the first ceil(wave_percent% of the agents
// to update), the second the rest. Pure: the verb reads the rows and the builds, this decides.
import type { RolloutBuild } from "../../../db/schema/index.ts";
import { type AgentBinary, compareVersionsDesc, pickBuild, platformOf } from "../binaries.ts";

export interface Candidate {
  id: number;
  hostname: string | null;
  os: string | null;
  arch: string | null;
  agent_version: string | null;
}

export interface PlannedTarget {
  agent_id: number;
  hostname: string | null;
  wave: number;
  state: "pending" | "skipped";
  build: RolloutBuild | null;
  error: string | null;
}

/** The newest version with at least one signed build; undefined when none is signed. */
export function newestSignedVersion(builds: readonly AgentBinary[]): string | undefined {
  return builds
    .filter((b) => b.signature)
    .map((b) => b.version)
    .sort(compareVersionsDesc)[0];
}

/** How many of `n` targets the first wave takes: ceil(n * percent / 100), at least 1. */
export function firstWaveSize(n: number, percent: number): number {
  return Math.max(1, Math.ceil((n * percent) / 100));
}

/** One target per candidate: skipped (with the reason) when it runs `version` already or has no signed build of it; the rest split in two waves in id order. */
export function planTargets(
  candidates: readonly Candidate[],
  builds: readonly AgentBinary[],
  version: string,
  percent: number,
): PlannedTarget[] {
  const planned = [...candidates]
    .sort((a, b) => a.id - b.id)
    .map((a): PlannedTarget => {
      const skip = (error: string): PlannedTarget => ({
        agent_id: a.id,
        hostname: a.hostname,
        wave: 0,
        state: "skipped",
        build: null,
        error,
      });
      if (a.agent_version === version) return skip(`already runs ${version}`);
      const platform = platformOf(a);
      const build = pickBuild(builds, platform, version);
      if (!build) return skip(`no build of ${version} for ${platform.os}/${platform.arch} on this instance`);
      if (!build.signature)
        return skip(`the build of ${version} for ${platform.os}/${platform.arch} is not signed (no ${build.file_name}.sig)`);
      return {
        agent_id: a.id,
        hostname: a.hostname,
        wave: 0,
        state: "pending",
        build: { version, sha256: build.sha256, signature: build.signature, os: build.os, arch: build.arch },
        error: null,
      };
    });
  const updating = planned.filter((t) => t.state === "pending");
  const first = firstWaveSize(updating.length, percent);
  for (const [i, t] of updating.entries()) t.wave = i < first ? 1 : 2;
  return planned;
}
