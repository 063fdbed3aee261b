// Two network namespaces of the test's own joined by a veth pair, so multicast can be sent and heard
// without touching any real interface: the listener runs in one (`ip netns exec`), the announcers in the
// other. Names carry the test's pid; namespaces a dead test process left behind are deleted first.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const PREFIX = "svcl";

export interface NetnsPair {
  listenerNs: string;
  announcerNs: string;
  listenerIf: string;
  announcerIf: string;
  listenerAddress: string;
  /** The printer's address; the router's is routerAddress, on the same interface. */
  announcerAddress: string;
  routerAddress: string;
  remove(): void;
}

const ip = (...args: string[]) => execFileSync("ip", args, { stdio: ["ignore", "pipe", "pipe"], timeout: 10_000 }).toString();

/** The creating process's pid and two random characters: test files may run in one process. */
const uniqueId = () => `${process.pid}x${Math.random().toString(36).slice(2, 4).padEnd(2, "0")}`;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Namespaces of this prefix whose creating process is gone. */
function removeStale(): void {
  for (const line of ip("netns", "list").split("\n")) {
    const name = line.split(" ")[0] ?? "";
    const m = new RegExp(`^${PREFIX}(\\d+)x[a-z0-9]{2}[lap]$`).exec(name);
    if (m && !alive(Number(m[1]))) ip("netns", "del", name);
  }
}

/** Why namespaces cannot be made here (not root, no ip, no permission), or null when they can. */
export function netnsUnavailable(): string | null {
  if (process.getuid?.() !== 0) return `network namespaces need root (uid ${process.getuid?.()}); run the tests as root (the CI does)`;
  const probe = `${PREFIX}${uniqueId()}p`;
  try {
    ip("netns", "add", probe);
    ip("netns", "del", probe);
    return null;
  } catch (e) {
    return `ip netns add is not permitted here: ${String((e as { stderr?: Buffer }).stderr ?? e).trim()}`;
  }
}

export function createNetnsPair(): NetnsPair {
  removeStale();
  const id = uniqueId();
  const listenerNs = `${PREFIX}${id}l`;
  const announcerNs = `${PREFIX}${id}a`;
  // Interface names have at most 15 characters; the pair lives only inside the namespaces, so the subnet can be fixed.
  const listenerIf = `v${id}l`;
  const announcerIf = `v${id}a`;
  const subnet = "10.251.7";
  const pair: NetnsPair = {
    listenerNs,
    announcerNs,
    listenerIf,
    announcerIf,
    listenerAddress: `${subnet}.1`,
    announcerAddress: `${subnet}.2`,
    routerAddress: `${subnet}.3`,
    remove() {
      for (const ns of [listenerNs, announcerNs]) {
        try {
          ip("netns", "del", ns);
        } catch {
          // already gone
        }
      }
    },
  };
  try {
    ip("netns", "add", listenerNs);
    ip("netns", "add", announcerNs);
    // Made inside the listener's namespace, so the pair never exists among the host's interfaces.
    ip("-n", listenerNs, "link", "add", listenerIf, "type", "veth", "peer", "name", announcerIf, "netns", announcerNs);
    for (const [ns, dev, addr] of [
      [listenerNs, listenerIf, pair.listenerAddress],
      [announcerNs, announcerIf, pair.announcerAddress],
    ] as const) {
      ip("-n", ns, "addr", "add", `${addr}/24`, "dev", dev);
      ip("-n", ns, "link", "set", "lo", "up");
      ip("-n", ns, "link", "set", dev, "multicast", "on");
      ip("-n", ns, "link", "set", dev, "up");
      ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", dev);
    }
    ip("-n", announcerNs, "addr", "add", `${pair.routerAddress}/24`, "dev", announcerIf);
  } catch (e) {
    pair.remove();
    throw e;
  }
  return pair;
}

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export interface Child {
  proc: ChildProcessWithoutNullStreams;
  /** Every JSON line the child printed so far. */
  lines: Record<string, unknown>[];
  /** Resolves with the first line (already printed or still to come) that matches, or rejects when the child exits first. */
  waitFor(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  send(line: string): void;
  end(): Promise<number | null>;
  stderr(): string;
}

/** A Node child running `script` (a .ts file of this folder) inside namespace `ns`. */
export function spawnInNetns(ns: string, script: string, args: string[]): Child {
  const proc = spawn("ip", ["netns", "exec", ns, process.execPath, fileURLToPath(new URL(script, import.meta.url)), ...args], {
    cwd: ROOT,
    stdio: "pipe",
  });
  const lines: Record<string, unknown>[] = [];
  const waiters: {
    match: (l: Record<string, unknown>) => boolean;
    resolve: (l: Record<string, unknown>) => void;
    reject: (e: Error) => void;
  }[] = [];
  let err = "";
  let exited = false;
  proc.stderr.on("data", (d: Buffer) => {
    if (err.length < 20_000) err += d.toString();
  });
  createInterface({ input: proc.stdout }).on("line", (text) => {
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text);
    } catch {
      return;
    }
    lines.push(line);
    for (const w of [...waiters]) {
      if (w.match(line)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  const exit = new Promise<number | null>((resolve) =>
    proc.on("exit", (code) => {
      exited = true;
      for (const w of waiters.splice(0)) w.reject(new Error(`${script} exited (${code}) first: ${err}`));
      resolve(code);
    }),
  );
  return {
    proc,
    lines,
    waitFor(match) {
      const found = lines.find(match);
      if (found) return Promise.resolve(found);
      if (exited) return Promise.reject(new Error(`${script} has exited: ${err}`));
      return new Promise((resolve, reject) => waiters.push({ match, resolve, reject }));
    },
    send: (line) => proc.stdin.write(`${line}\n`),
    async end() {
      proc.stdin.end();
      return exit;
    },
    stderr: () => err,
  };
}
