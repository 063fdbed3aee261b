// The agent builds under AGENT_BINARY_DIR (shared/verbs/agents/binaries.ts): <dir>/<version>/<os>/<arch>/
// holding exactly one build file (any name; dot files and .sha256/.sig/.asc companions are ignored).
// A directory with several candidates is ambiguous and skipped with a warning rather than guessed at.
// SHA-256 sums are computed from the files and remembered per (inode, size, mtime), so a replaced build
// is hashed again and an unchanged one only once. A build's `<file>.sig` companion is its release
// signature; the release public key is the configured one, else the dir's release-key.pub (the build's).
import { createHash } from "node:crypto";
import { createReadStream, type Dirent, type Stats } from "node:fs";
import { open, readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { parseReleaseKey } from "../shared/agents/release.ts";
import type { Logger } from "../shared/logger.ts";
import { ARCH_PATTERN, OS_PATTERN, VERSION_PATTERN } from "../shared/schemas/agents.ts";
import { type AgentBinary, type AgentBinarySource, compareVersionsDesc, isBuildPath } from "../shared/verbs/agents/binaries.ts";

const COMPANION = /\.(sha256|sha256sum|sig|asc|md5|txt)$/i;

async function subdirs(dir: string, pattern: RegExp): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.filter((e) => e.isDirectory() && pattern.test(e.name)).map((e) => e.name);
}

function sha256Of(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    stream
      .on("data", (chunk) => hash.update(chunk))
      .on("error", reject)
      .on("end", () => resolve(hash.digest("hex")));
  });
}

export interface DirectoryOptions {
  /** The release public key (64 hex) from the configuration; else the dir's release-key.pub is read. */
  releaseKey?: string | undefined;
  /** Serve this version only (the builds `npm start` finds in dist/agent-builds). */
  version?: string | undefined;
}

/** The signature beside a build (base64, one line), or null. */
async function signatureOf(path: string): Promise<string | null> {
  const text = await readFile(`${path}.sig`, "utf8").catch(() => null);
  const sig = text?.trim();
  return sig && /^[A-Za-z0-9+/]{86}==$/.test(sig) ? sig : null;
}

export function directoryBinaries(root: string, logger: Logger, options: DirectoryOptions = {}): AgentBinarySource {
  const sums = new Map<string, string>();
  const warned = new Set<string>();

  /** The one build file of an arch directory, or undefined (none, or ambiguous). */
  async function buildFile(dir: string): Promise<string | undefined> {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return undefined;
    }
    const files = entries
      .filter((e) => (e.isFile() || e.isSymbolicLink()) && !e.name.startsWith(".") && !COMPANION.test(e.name))
      .map((e) => e.name);
    if (files.length > 1 && !warned.has(dir)) {
      warned.add(dir);
      logger.warn("agent build directory holds several files; it is skipped until it holds one", { dir, files });
    }
    return files.length === 1 ? files[0] : undefined;
  }

  /** The SHA-256 of a file as `st` describes it, hashed from `read()` the first time. */
  async function sumOf(path: string, st: Stats, read: () => NodeJS.ReadableStream): Promise<string> {
    const key = `${path}\0${st.ino}\0${st.size}\0${st.mtimeMs}`;
    let sum = sums.get(key);
    if (!sum) {
      sum = await sha256Of(read());
      sums.set(key, sum);
    }
    return sum;
  }

  async function locate(version: string, os: string, arch: string): Promise<{ name: string; path: string } | undefined> {
    const dir = join(root, version, os, arch);
    const name = await buildFile(dir);
    return name ? { name, path: join(dir, name) } : undefined;
  }

  return {
    async list() {
      const found: AgentBinary[] = [];
      for (const version of await subdirs(root, VERSION_PATTERN)) {
        if (options.version !== undefined && version !== options.version) continue;
        for (const os of await subdirs(join(root, version), OS_PATTERN))
          for (const arch of await subdirs(join(root, version, os), ARCH_PATTERN)) {
            const file = await locate(version, os, arch);
            const st = file && (await stat(file.path).catch(() => undefined));
            if (!file || !st?.isFile()) continue;
            const sha256 = await sumOf(file.path, st, () => createReadStream(file.path));
            found.push({ version, os, arch, file_name: file.name, size: st.size, sha256, signature: await signatureOf(file.path) });
          }
      }
      return found.sort((a, b) => compareVersionsDesc(a.version, b.version) || a.os.localeCompare(b.os) || a.arch.localeCompare(b.arch));
    },

    async open(version, os, arch) {
      if (!isBuildPath(version, os, arch) || (options.version !== undefined && version !== options.version)) return undefined;
      const file = await locate(version, os, arch);
      const handle = file && (await open(file.path, "r").catch(() => undefined));
      if (!file || !handle) return undefined;
      // Hashed and served from one open file, so the sum always belongs to the bytes sent.
      let st: Stats, sha256: string;
      try {
        st = await handle.stat();
        if (!st.isFile()) throw new Error("not a file");
        sha256 = await sumOf(file.path, st, () => handle.createReadStream({ start: 0, autoClose: false }));
      } catch {
        await handle.close();
        return undefined;
      }
      const body = Readable.toWeb(handle.createReadStream({ start: 0 })) as ReadableStream<Uint8Array>;
      return { binary: { version, os, arch, file_name: file.name, size: st.size, sha256, signature: await signatureOf(file.path) }, body };
    },

    async releaseKey() {
      if (options.releaseKey) return options.releaseKey;
      const text = await readFile(join(root, "release-key.pub"), "utf8").catch(() => undefined);
      return text === undefined ? undefined : parseReleaseKey(text);
    },
  };
}
