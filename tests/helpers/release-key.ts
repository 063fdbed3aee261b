// A throwaway agent release key for tests: signs builds laid out as AGENT_BINARY_DIR serves them
// (<dir>/<version>/<os>/<arch>/<file> with <file>.sig beside it) and writes the dir's release-key.pub.
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { releaseEntry } from "../../shared/agents/release.ts";

export interface TestReleaseKey {
  /** The public key, 64 hex. */
  hex: string;
  /** Base64 signature of the build's SHA256SUMS entry. */
  signEntry(version: string, os: string, arch: string, sha256: string): string;
  /** Writes <file>.sig for the build file under `dir`; answers the signature. */
  signBuild(dir: string, version: string, os: string, arch: string, file?: string): string;
  /** Writes <dir>/release-key.pub. */
  publish(dir: string): void;
}

export function testReleaseKey(): TestReleaseKey {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const der = publicKey.export({ format: "der", type: "spki" });
  const hex = der.subarray(der.length - 32).toString("hex");
  const signEntry = (version: string, os: string, arch: string, sha256: string) =>
    sign(null, Buffer.from(releaseEntry({ version, os, arch, sha256 })), privateKey).toString("base64");
  return {
    hex,
    signEntry,
    signBuild(dir, version, os, arch, file = "svc-agent") {
      const path = join(dir, version, os, arch, file);
      const signature = signEntry(version, os, arch, createHash("sha256").update(readFileSync(path)).digest("hex"));
      writeFileSync(`${path}.sig`, `${signature}\n`);
      return signature;
    },
    publish(dir) {
      writeFileSync(join(dir, "release-key.pub"), `${hex}\n`);
    },
  };
}
