// Which agent builds a Node process serves: AGENT_BINARY_DIR's (every version); with it unset, the entries
// (`npm start`) serve their own version's builds from dist/agent-builds once `npm run build:agent` has
// made them, and nothing otherwise. The release key is the configured one, else the dir's release-key.pub.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../shared/config.ts";
import { silentLogger } from "../../shared/logger.ts";
import { agentBinarySource } from "../../runtime/node-deps.ts";

const dir = mkdtempSync(join(tmpdir(), "agent-builds-default-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
for (const version of ["1.0.0", "0.9.0"]) {
  mkdirSync(join(dir, version, "linux", "amd64"), { recursive: true });
  writeFileSync(join(dir, version, "linux", "amd64", "svc-agent"), `agent ${version}`);
  writeFileSync(join(dir, version, "linux", "amd64", "svc-agent.sig"), `${"A".repeat(86)}==\n`);
}
const KEY = "ab".repeat(32);
writeFileSync(join(dir, "release-key.pub"), `${KEY}\n`);

describe("agent builds served", () => {
  it("unset AGENT_BINARY_DIR: the entries serve their own version from the build directory, with its key", async () => {
    const source = agentBinarySource(parseConfig({}, "1.0.0"), silentLogger, { defaultAgentBuilds: true }, dir);
    const builds = await source!.list();
    expect(builds.map((b) => [b.version, b.signature])).toEqual([["1.0.0", `${"A".repeat(86)}==`]]);
    expect(await source!.open("0.9.0", "linux", "amd64")).toBeUndefined();
    expect(await source!.releaseKey()).toBe(KEY);
  });

  it("nothing when the version was not built, or for a process that is not an entry (tests, tools)", () => {
    expect(agentBinarySource(parseConfig({}, "2.0.0"), silentLogger, { defaultAgentBuilds: true }, dir)).toBeUndefined();
    expect(agentBinarySource(parseConfig({}, "1.0.0"), silentLogger, {}, dir)).toBeUndefined();
  });

  it("AGENT_BINARY_DIR: every version; AGENT_RELEASE_PUBLIC_KEY wins over release-key.pub and must be 64 hex", async () => {
    const other = "cd".repeat(32);
    const source = agentBinarySource(
      parseConfig({ AGENT_BINARY_DIR: dir, AGENT_RELEASE_PUBLIC_KEY: other.toUpperCase() }, "1.0.0"),
      silentLogger,
      {},
      join(dir, "none"),
    );
    expect((await source!.list()).map((b) => b.version)).toEqual(["1.0.0", "0.9.0"]);
    expect(await source!.releaseKey()).toBe(other);
    expect(() => parseConfig({ AGENT_RELEASE_PUBLIC_KEY: "nope" })).toThrow(
      /AGENT_RELEASE_PUBLIC_KEY expects the release public key as 64 hex characters/,
    );
  });
});
