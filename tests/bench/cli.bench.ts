// Issue 34: the `lab` command line, run as a subprocess (node bin/lab.mjs, as `npx lab` runs it) against
// the real server with an API token, one client address (the server's rate limits apply as to anyone):
// `lab list hardware` of 10,000 rows (a list streamed as NDJSON, docs/adr/0503: time to the first line
// of stdout, total time, the CLI's peak RSS), then `lab apply -f` of a generated 5,000-object lab file,
// `lab diff` and `lab apply` of a version with 500 changes. Targets: the first line in < 300 ms; the
// apply of 5,000 and the 500-change diff and apply < 10 s each. `npm run bench -- cli`; figures in
// docs/cli.md and docs/adr/0503.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BenchContext, type BenchRow, round } from "./harness.ts";

const LIST_ROWS = 10_000;
const LAB_OBJECTS = Number(process.env.CLI_BENCH_OBJECTS ?? "5000");
const LAB_CHANGES = Number(process.env.CLI_BENCH_CHANGES ?? "500");
const SITES = 50;
const LAB = fileURLToPath(new URL("../../bin/lab.mjs", import.meta.url));
/** GNU time, for the CLI's peak RSS; without it that column stays empty. */
const TIME = "/usr/bin/time";

interface Run {
  firstLineMs: number | undefined;
  totalMs: number;
  code: number | null;
  lines: number;
  peakRssMb: number | undefined;
  stderr: string;
  /** The last line of stdout. */
  lastLine: string;
}

/** Runs `lab args` and times it from the spawn: its first line of stdout, its exit, its peak RSS. */
function lab(home: string, ctx: BenchContext, args: string[]): Promise<Run> {
  const rssFile = join(home, "rss");
  rmSync(rssFile, { force: true });
  const withTime = process.platform === "linux";
  const [command, argv] = withTime
    ? [TIME, ["-f", "%M", "-o", rssFile, process.execPath, LAB, ...args]]
    : [process.execPath, [LAB, ...args]];
  return new Promise((resolve) => {
    const started = performance.now();
    let firstLineMs: number | undefined;
    let lines = 0;
    let stderr = "";
    let tail = "";
    const child = spawn(command, argv, {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: home,
        XDG_CONFIG_HOME: join(home, "config"),
        XDG_CACHE_HOME: join(home, "cache"),
        LAB_URL: ctx.baseUrl,
        LAB_TOKEN: ctx.token,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (chunk: Buffer) => {
      if (firstLineMs === undefined && chunk.includes(10)) firstLineMs = performance.now() - started;
      for (const b of chunk) if (b === 10) lines++;
      tail = (tail + chunk.toString()).slice(-2000);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 600_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      const totalMs = performance.now() - started;
      let peakRssMb: number | undefined;
      try {
        const kb = Number(readFileSync(rssFile, "utf8").trim().split("\n").pop());
        if (Number.isFinite(kb) && kb > 0) peakRssMb = round(kb / 1024);
      } catch {
        peakRssMb = undefined;
      }
      resolve({ firstLineMs, totalMs, code, lines, peakRssMb, stderr, lastLine: tail.trimEnd().split("\n").pop() ?? "" });
    });
  });
}

/** A lab file of `objects` objects: SITES sites and hardware placed in them; `changed` of the hardware with more memory. */
function labFile(tag: string, objects: number, changed: number): string {
  let text = `owner: cli-bench-${tag}\n\nsites:\n`;
  for (let s = 0; s < SITES; s++) text += `  - name: clib-${tag}-site-${s}\n    address: Hall ${s}\n`;
  text += "\nhardware:\n";
  for (let i = 0; i < objects - SITES; i++)
    text += `  - name: clib-${tag}-${i}\n    role: server\n    vendor: Dell\n    memory_gb: ${i < changed ? 128 : 64}\n    ip_address: 10.${100 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}\n    site: clib-${tag}-site-${i % SITES}\n    tags: [bench, rack-${i % 20}]\n`;
  return text;
}

/** Runs per list figure (each one request against the list route's read limit of about 30 a minute). */
const RUNS = 5;

/** The run with the median time to the first line (each field of one real run, not mixed). */
async function medianOf<T extends { firstLineMs: number | undefined; totalMs: number }>(n: number, once: () => Promise<T>): Promise<T> {
  const runs: T[] = [];
  for (let i = 0; i < n; i++) runs.push(await once());
  runs.sort((a, b) => (a.firstLineMs ?? a.totalMs) - (b.firstLineMs ?? b.totalMs));
  return runs[Math.floor(n / 2)]!;
}

/** The list as NDJSON read by the bench process itself: the server's share of the CLI's figures. */
async function fetchList(ctx: BenchContext): Promise<{ firstLineMs: number | undefined; totalMs: number; lines: number }> {
  const started = performance.now();
  const res = await fetch(`${ctx.baseUrl}/api/v1/hardware`, {
    headers: { authorization: `Bearer ${ctx.token}`, accept: "application/x-ndjson" },
  });
  if (res.status !== 200) throw new Error(`GET /api/v1/hardware as NDJSON -> ${res.status}: ${await res.text()}`);
  let firstLineMs: number | undefined;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    if (firstLineMs === undefined && chunk.includes(10)) firstLineMs = performance.now() - started;
    for (const b of chunk) if (b === 10) lines++;
  }
  return { firstLineMs, totalMs: performance.now() - started, lines };
}

const ms = (x: number | undefined) => (x === undefined ? undefined : round(x));
const target = (ok: boolean, what: string) => `${what}: ${ok ? "met" : "MISSED"}`;

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const home = mkdtempSync(join(tmpdir(), "lab-bench-"));
  const rows: BenchRow[] = [];
  try {
    // The harness seeds 10,000 hardware nodes at BENCH_SCALE=1; a smaller scale is topped up to them.
    const [{ n } = { n: 0 }] = await ctx.sql<{ n: number }[]>`select count(*)::int as n from hardware`;
    if (n < LIST_ROWS)
      await ctx.sql`insert into hardware (name, role) select 'clib-list-' || g, 'server' from generate_series(1, ${LIST_ROWS - n}) g`;

    // The first command fetches the OpenAPI document and caches the kinds table, as a session's first does.
    const cold = await lab(home, ctx, ["list", "hardware", "--limit", "1"]);
    if (cold.code !== 0) throw new Error(`lab list exited ${cold.code}: ${cold.stderr}`);
    rows.push({ name: "lab list hardware --limit 1 (cold: fetches the OpenAPI document)", total_ms: ms(cold.totalMs) });
    // Where the time to the first line goes: the CLI's start, then the server's first rows.
    const start = await medianOf(RUNS, () => lab(home, ctx, ["--help"]));
    rows.push({ name: `lab --help (node, the CLI's modules), median of ${RUNS}`, total_ms: ms(start.totalMs) });
    const direct = await medianOf(RUNS, () => fetchList(ctx));
    rows.push({
      name: `GET /api/v1/hardware as NDJSON from the bench process, ${LIST_ROWS.toLocaleString("en")} rows, median of ${RUNS}: first line`,
      total_ms: ms(direct.firstLineMs),
    });
    rows.push({ name: "the same: all of it", total_ms: ms(direct.totalMs), note: `${direct.lines.toLocaleString("en")} lines` });
    for (const [label, args] of [
      ["table", ["list", "hardware"]],
      ["-o json", ["list", "hardware", "-o", "json"]],
      ["-o yaml", ["list", "hardware", "-o", "yaml"]],
    ] as const) {
      const r = await medianOf(RUNS, () => lab(home, ctx, [...args]));
      if (r.code !== 0) throw new Error(`lab ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
      rows.push({
        name: `lab list hardware ${label}, ${LIST_ROWS.toLocaleString("en")} rows, median of ${RUNS}: first line of stdout`,
        total_ms: ms(r.firstLineMs),
        target: target((r.firstLineMs ?? Number.POSITIVE_INFINITY) < 300, "< 300 ms"),
      });
      rows.push({
        name: `lab list hardware ${label}, ${LIST_ROWS.toLocaleString("en")} rows, median of ${RUNS}: all of it`,
        total_ms: ms(r.totalMs),
        note: `${r.lines.toLocaleString("en")} lines; CLI peak RSS ${r.peakRssMb ?? "?"} MB${r.stderr.includes("rate limited") ? "; waited for the rate limit" : ""}`,
      });
    }

    const tag = String(Date.now() % 1_000_000);
    const first = join(home, "lab.yaml");
    const second = join(home, "lab-changed.yaml");
    writeFileSync(first, labFile(tag, LAB_OBJECTS, 0));
    writeFileSync(second, labFile(tag, LAB_OBJECTS, LAB_CHANGES));
    const size = `${(readFileSync(first).length / 1024 / 1024).toFixed(1)} MB file`;
    const step = async (name: string, args: string[], expect: RegExp) => {
      const r = await lab(home, ctx, args);
      const tail = r.stderr.trim().split("\n").pop() ?? "";
      if (r.code !== 0) throw new Error(`lab ${args.join(" ")} exited ${r.code}: ${tail}`);
      if (!expect.test(r.lastLine)) throw new Error(`lab ${args.join(" ")} said "${r.lastLine}"`);
      rows.push({
        name,
        total_ms: ms(r.totalMs),
        target: target(r.totalMs < 10_000, "< 10 s"),
        note: `"${r.lastLine}"; CLI peak RSS ${r.peakRssMb ?? "?"} MB`,
      });
      return r;
    };
    await step(`lab apply -f, ${LAB_OBJECTS.toLocaleString("en")} objects (${size}), all created`, ["apply", "-f", first], /created/);
    await step(`lab diff -f, the same file with ${LAB_CHANGES} changes`, ["diff", "-f", second], /to change/);
    await step(`lab apply -f, the same file with ${LAB_CHANGES} changes`, ["apply", "-f", second], /changed/);
    await step(`lab diff -f, ${LAB_OBJECTS.toLocaleString("en")} objects, nothing to change`, ["diff", "-f", second], /No changes/);
    return rows;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
