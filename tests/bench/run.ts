// `npm run bench`: seeds the issue-4 inventory (BENCH_SCALE=1 is full size), starts the real server,
// runs every tests/bench/*.bench.ts in turn and prints one table of figures. Benchmarks only report:
// no figure here fails a build.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type BenchContext, type BenchRow, openBench } from "./harness.ts";

const dir = fileURLToPath(new URL(".", import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort((a, b) => (a === "inventory.bench.ts" ? -1 : b === "inventory.bench.ts" ? 1 : a.localeCompare(b)));

const started = performance.now();
const { ctx, close } = await openBench();
const seeded = Math.round(performance.now() - started);
const results: { file: string; rows: BenchRow[] }[] = [];
try {
  for (const file of files) {
    const mod = (await import(new URL(file, `file://${dir}/`).href)) as { run(ctx: BenchContext): Promise<BenchRow[]> };
    process.stderr.write(`running ${file}\n`);
    try {
      results.push({ file, rows: await mod.run(ctx) });
    } catch (e) {
      results.push({ file, rows: [{ name: "FAILED", note: (e as Error).message.slice(0, 200) }] });
    }
  }
} finally {
  await close();
}

const fmt = (x: number | undefined) => (x === undefined ? "" : String(x));
const lines = [
  `Benchmark on ${process.version}, ${(await import("node:os")).cpus().length} cores, BENCH_SCALE=${ctx.scale}: ${JSON.stringify(ctx.counts)} (seeded in ${seeded} ms)`,
  "",
  "| bench | operation | p50 ms | p99 ms | req/s | total ms | bare SQL ms | target | note |",
  "|---|---|---:|---:|---:|---:|---:|---|---|",
  ...results.flatMap(({ file, rows }) =>
    rows.map(
      (r) =>
        `| ${file.replace(".bench.ts", "")} | ${r.name} | ${fmt(r.p50_ms)} | ${fmt(r.p99_ms)} | ${fmt(r.rps)} | ${fmt(r.total_ms)} | ${fmt(r.baseline_sql_ms)} | ${r.target ?? ""} | ${r.note ?? ""} |`,
    ),
  ),
];
console.log(lines.join("\n"));
process.exit(0);
