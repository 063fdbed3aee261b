// Signed releases: verifyBuild accepts a build whose SHA-256 and signature match, and refuses a tampered
// file, a wrong signature (another key, another build's entry, garbage) and a missing key, saying which.
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BuildVerificationError, RELEASE_PUBLIC_KEY, verifyBuild } from "../../../agent/release.ts";
import { parseReleaseKey, releaseEntry, releaseKeyPem, verifyReleaseSignature } from "../../../shared/agents/release.ts";

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const der = publicKey.export({ format: "der", type: "spki" });
  return {
    privateKey,
    hex: der.subarray(der.length - 32).toString("hex"),
    pem: publicKey.export({ format: "pem", type: "spki" }).toString(),
  };
}

const dir = mkdtempSync(join(tmpdir(), "agent-release-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const release = keyPair();
const other = keyPair();
const build = { version: "1.2.3", os: "linux", arch: "amd64" };
const bytes = Buffer.from("#!/bin/sh\necho a build\n");
const file = join(dir, "svc-agent");
writeFileSync(file, bytes);
const sum = createHash("sha256").update(bytes).digest("hex");
const signWith = (key: typeof release, b = build, s = sum) =>
  sign(null, Buffer.from(releaseEntry({ ...b, sha256: s })), key.privateKey).toString("base64");

describe("the scheme", () => {
  it("signs the build's SHA256SUMS line, paths relative to the build directory", () => {
    expect(releaseEntry({ ...build, sha256: sum })).toBe(`${sum}  1.2.3/linux/amd64/svc-agent\n`);
    expect(() => releaseEntry({ ...build, sha256: "xyz" })).toThrow(/64 lowercase hex/);
  });

  it("public keys: 64 hex or the SPKI PEM openssl writes, both ways", () => {
    expect(parseReleaseKey(release.pem)).toBe(release.hex);
    expect(parseReleaseKey(release.hex.toUpperCase())).toBe(release.hex);
    expect(releaseKeyPem(release.hex)).toBe(release.pem);
    expect(parseReleaseKey("not a key")).toBeUndefined();
    expect(verifyReleaseSignature("x", "!!!", release.hex)).toBe(false);
  });

  it("an agent run from a checkout has no embedded release key", () => {
    expect(RELEASE_PUBLIC_KEY).toBeUndefined();
  });
});

describe("verifyBuild", () => {
  it("accepts the build, by path or by bytes", async () => {
    await expect(verifyBuild(file, sum, signWith(release), release.hex, build)).resolves.toBeUndefined();
    await expect(verifyBuild(bytes, sum, signWith(release), release.hex, build)).resolves.toBeUndefined();
  });

  it("refuses a tampered file: its SHA-256 is not the signed one", async () => {
    const tampered = join(dir, "tampered");
    writeFileSync(tampered, Buffer.concat([bytes, Buffer.from("rm -rf /\n")]));
    const err = await verifyBuild(tampered, sum, signWith(release), release.hex, build).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BuildVerificationError);
    expect((err as Error).message).toMatch(
      /^agent build 1\.2\.3 for linux\/amd64 refused: its SHA-256 is [0-9a-f]{64}, the signed release lists [0-9a-f]{64} \(the file was altered or truncated\)$/,
    );
  });

  it("refuses a tampered file given with its own SHA-256: the signature is then not the release key's", async () => {
    const evil = Buffer.from("#!/bin/sh\necho evil\n");
    const evilSum = createHash("sha256").update(evil).digest("hex");
    await expect(verifyBuild(evil, evilSum, signWith(release), release.hex, build)).rejects.toThrow(
      /refused: its signature does not verify under release key [0-9a-f]{16}$/,
    );
  });

  it("refuses a wrong signature: another key's, another build's, or garbage", async () => {
    await expect(verifyBuild(file, sum, signWith(other), release.hex, build)).rejects.toThrow(/signature does not verify/);
    await expect(verifyBuild(file, sum, signWith(release, { ...build, version: "1.2.2" }), release.hex, build)).rejects.toThrow(
      /signature does not verify/,
    );
    await expect(verifyBuild(file, sum, signWith(release, { ...build, arch: "arm64" }), release.hex, build)).rejects.toThrow(
      /signature does not verify/,
    );
    await expect(verifyBuild(file, sum, "AAAA", release.hex, build)).rejects.toThrow(/signature does not verify/);
  });

  it("refuses an unsigned build and an agent without a release key", async () => {
    await expect(verifyBuild(file, sum, null, release.hex, build)).rejects.toThrow(/refused: it is not signed$/);
    await expect(verifyBuild(file, sum, signWith(release), undefined, build)).rejects.toThrow(/refused: no release public key/);
    await expect(verifyBuild(file, "abc", signWith(release), release.hex, build)).rejects.toThrow(/expected SHA-256 is not 64 hex/);
  });
});
