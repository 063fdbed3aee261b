// Agent builds an operator places under AGENT_BINARY_DIR, as <dir>/<version>/<os>/<arch>/<one file>
// (docs/adr/0072-agents-binaries.md). Reading files is Node's business, so the functions half sees them only through
// this interface: runtime/agent-binaries.ts implements it, and where no provider is given (the edge, or
// AGENT_BINARY_DIR unset) the instance serves no binaries.
import { ARCH_PATTERN, OS_PATTERN, VERSION_PATTERN } from "../../schemas/agents.ts";

/** One build: its place in the layout, its size and SHA-256 (hex), and its release signature when signed. */
export interface AgentBinary {
  version: string;
  os: string;
  arch: string;
  file_name: string;
  size: number;
  sha256: string;
  /** Base64 Ed25519 signature of the build's SHA256SUMS entry (shared/agents/release.ts), from `<file>.sig`; null: unsigned. */
  signature?: string | null;
}

export interface AgentBinarySource {
  /** Every build there is, newest version first. */
  list(): Promise<AgentBinary[]>;
  /** One build and a stream of its bytes; undefined when there is no such build. */
  open(version: string, os: string, arch: string): Promise<{ binary: AgentBinary; body: ReadableStream<Uint8Array> } | undefined>;
  /** The release public key (64 hex) the builds are checked against; undefined when none is configured. */
  releaseKey(): Promise<string | undefined>;
}

export function isBuildPath(version: string, os: string, arch: string): boolean {
  return VERSION_PATTERN.test(version) && OS_PATTERN.test(os) && ARCH_PATTERN.test(arch);
}

export { compareVersionsDesc } from "../../agents/version-order.ts";

/** The agent's platform, defaulting like the original (linux/amd64) when the agent has not said. */
export function platformOf(agent: { os: string | null; arch: string | null }): { os: string; arch: string } {
  return { os: agent.os?.toLowerCase() || "linux", arch: agent.arch?.toLowerCase() || "amd64" };
}

/**
 * The build an update should install: `version` when given, else the newest version built for the
 * platform. undefined when there is none.
 */
export function pickBuild(
  builds: readonly AgentBinary[],
  platform: { os: string; arch: string },
  version?: string,
): AgentBinary | undefined {
  return builds.find((b) => b.os === platform.os && b.arch === platform.arch && (version === undefined || b.version === version));
}
