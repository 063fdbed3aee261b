// The agent's side of signed releases (shared/agents/release.ts has the scheme): the release public key
// the build embedded, and verifyBuild, which every downloaded build must pass before it is made
// executable or run (self-update, and any install flow that runs in Node).
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { type BuildRef, releaseEntry, releaseKeyId, RELEASE_KEY_PATTERN, verifyReleaseSignature } from "../shared/agents/release.ts";

// Replaced by scripts/build-agent.ts (esbuild `define`) with the release key's 64 hex, or "" for an
// unsigned build; undeclared when the agent runs from a checkout, which then has no release key.
declare const __SVC_AGENT_RELEASE_KEY__: string | undefined;

/** The release public key this agent trusts (64 hex); undefined in an unsigned build or a checkout. */
export const RELEASE_PUBLIC_KEY: string | undefined =
  typeof __SVC_AGENT_RELEASE_KEY__ === "string" && RELEASE_KEY_PATTERN.test(__SVC_AGENT_RELEASE_KEY__)
    ? __SVC_AGENT_RELEASE_KEY__
    : undefined;

export class BuildVerificationError extends Error {
  override name = "BuildVerificationError";
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * Resolves when `file` (a path, or the bytes) is the build `build` names: its SHA-256 is `sha256` and
 * `signature` (base64) is the release key's signature of that build's SHA256SUMS entry. Throws
 * BuildVerificationError saying which check refused it otherwise; nothing may run the file then.
 */
export async function verifyBuild(
  file: string | Uint8Array,
  sha256: string,
  signature: string | null | undefined,
  publicKey: string | undefined,
  build: BuildRef,
): Promise<void> {
  const what = `agent build ${build.version} for ${build.os}/${build.arch}`;
  if (!publicKey || !RELEASE_KEY_PATTERN.test(publicKey))
    throw new BuildVerificationError(`${what} refused: no release public key to verify it with (this agent was built without one)`);
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new BuildVerificationError(`${what} refused: the expected SHA-256 is not 64 hex characters`);
  if (!signature) throw new BuildVerificationError(`${what} refused: it is not signed`);
  if (!verifyReleaseSignature(releaseEntry({ ...build, sha256 }), signature, publicKey))
    throw new BuildVerificationError(`${what} refused: its signature does not verify under release key ${releaseKeyId(publicKey)}`);
  const actual = typeof file === "string" ? await sha256OfFile(file) : createHash("sha256").update(file).digest("hex");
  if (actual !== sha256)
    throw new BuildVerificationError(
      `${what} refused: its SHA-256 is ${actual}, the signed release lists ${sha256} (the file was altered or truncated)`,
    );
}
