// Export and import of a large inventory (`npm run bench -- export-import`). For 10,000 and 100,000
// objects (EXPORT_BENCH_SIZES to change): a fresh database is filled with generate_series (every kind
// of the document, with relations, tags and attachments), the export is read through the real app
// (createApp, in this process, no socket) into a file while this process's RSS and heap are sampled,
// then the file is imported into an empty database. Targets (issue 15): export of 100,000 objects in
// under 10 s with flat memory, import in under 30 s. Figures go to docs/export-import.md.
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type postgres from "postgres";
import { createApp } from "../../functions/app.ts";
import { parseConfig } from "../../shared/config.ts";
import { openRuntime } from "../../runtime/node-deps.ts";
import { TEST_VAULT_KEY } from "../helpers/env.ts";
import { type BenchContext, type BenchRow, createBenchDatabase } from "./harness.ts";

const SIZES = (process.env.EXPORT_BENCH_SIZES ?? "10000,100000").split(",").map(Number);
const MB = 1024 * 1024;

/** Fills the inventory with about `n` objects (rows of the exported kinds) and answers the exact count. */
export async function seedLargeInventory(sql: postgres.Sql, n: number): Promise<number> {
  const H = Math.round(n * 0.08),
    C = Math.round(n * 0.16),
    S = Math.round(n * 0.24),
    ST = Math.round(n * 0.04);
  const NW = Math.max(1, Math.round(n * 0.01)),
    M = Math.round(n * 0.02),
    E = Math.round(n * 0.01),
    D = Math.round(n * 0.02);
  const CL = Math.max(1, Math.round(n * 0.005)),
    IP = Math.round(n * 0.05);
  const statements = [
    `insert into sites (id, name) select g, 'site-' || g from generate_series(1, 10) g`,
    `insert into environments (id, name) select g, 'env-' || g from generate_series(1, 5) g`,
    `insert into categories (id, name) select g, 'cat-' || g from generate_series(1, 10) g`,
    `insert into tags (id, name, color) select g, 'tag-' || g, '#00aa' || lpad(to_hex(g), 2, '0') from generate_series(1, 50) g`,
    `insert into hardware (id, name, role, vendor, memory_gb, ip_address, environment_id, site_id, tags, notes)
       select g, 'hw-' || g, 'server', 'Dell', 64.5, '10.' || (g / 65536) % 256 || '.' || (g / 256) % 256 || '.' || g % 256, 1 + g % 5, 1 + g % 10,
              array['tag-' || (1 + g % 50), 'tag-' || (1 + (g + 7) % 50)], 'notes for ' || g from generate_series(1, ${H}) g`,
    `insert into compute_units (id, name, kind, hardware_id, memory_mb, cpu_cores, environment_id, tags)
       select g, 'cu-' || g, case when g % 2 = 0 then 'vm' else 'container' end, 1 + g % ${H}, 2048, 2, 1 + g % 5, array['tag-' || (1 + g % 50)] from generate_series(1, ${C}) g`,
    `insert into services (id, name, slug, compute_id, category_id, ports, tags)
       select g, 'svc-' || g, 'svc-' || g, 1 + g % ${C}, 1 + g % 10, '[{"ip":null,"port":443,"protocol":"tcp","label":"https"}]'::jsonb, array['tag-' || (1 + g % 50)]
       from generate_series(1, ${S}) g`,
    `insert into service_dependencies (service_id, depends_on_id) select g, g - 1 from generate_series(2, ${S}, 2) g`,
    `insert into storage (id, name, kind, capacity_gb, used_gb, hardware_id) select g, 'st-' || g, 'pool', 1000, 100.5, 1 + g % ${H} from generate_series(1, ${ST}) g`,
    `insert into service_storage (service_id, storage_id, mount_path) select 1 + g % ${S}, g, '/data' from generate_series(1, ${ST}) g`,
    `insert into networks (id, name, cidr, site_id) select g, 'net-' || g, '10.' || g % 256 || '.0.0/16', 1 + g % 10 from generate_series(1, ${NW}) g`,
    `insert into network_members (network_id, compute_id) select 1 + g % ${NW}, g from generate_series(1, ${Math.floor(C / 2)}) g`,
    `insert into network_hardware_members (network_id, hardware_id) select 1 + g % ${NW}, g from generate_series(1, ${H}) g`,
    `insert into misc_items (id, name, kind) select g, 'misc-' || g, 'thing' from generate_series(1, ${M}) g`,
    `insert into service_misc (service_id, misc_id) select 1 + g % ${S}, g from generate_series(1, ${M}) g`,
    `insert into external_nodes (id, name, provider) select g, 'ext-' || g, 'cloud' from generate_series(1, ${E}) g`,
    `insert into service_external_dependencies (id, service_id, external_node_id) select g, 1 + g % ${S}, g from generate_series(1, ${E}) g`,
    `insert into docs (id, title, body_md) select g, 'doc-' || g, repeat('text ', 20) from generate_series(1, ${D}) g`,
    `insert into doc_entities (doc_id, entity_type, entity_id) select g, 'hardware', 1 + g % ${H} from generate_series(1, ${D}) g`,
    `insert into hardware_clusters (id, name) select g, 'cl-' || g from generate_series(1, ${CL}) g`,
    `insert into cluster_members (id, cluster_id, hardware_id) select g, 1 + g % ${CL}, g from generate_series(1, ${Math.floor(H / 2)}) g`,
    `insert into ip_addresses (id, address, network_id) select g, '172.' || (16 + g / 65536) || '.' || (g / 256) % 256 || '.' || g % 256, 1 + g % ${NW} from generate_series(1, ${IP}) g`,
  ];
  await sql.begin(async (tx) => {
    for (const s of statements) await tx.unsafe(s);
    for (const t of [
      "sites",
      "environments",
      "categories",
      "tags",
      "hardware",
      "compute_units",
      "services",
      "storage",
      "networks",
      "misc_items",
      "external_nodes",
      "service_external_dependencies",
      "docs",
      "hardware_clusters",
      "cluster_members",
      "ip_addresses",
    ])
      await tx.unsafe(`select setval(pg_get_serial_sequence('${t}', 'id'), (select max(id) from "${t}"))`);
  });
  const tables = [
    "sites",
    "environments",
    "categories",
    "tags",
    "hardware",
    "compute_units",
    "services",
    "service_dependencies",
    "storage",
    "service_storage",
    "networks",
    "network_members",
    "network_hardware_members",
    "misc_items",
    "service_misc",
    "external_nodes",
    "service_external_dependencies",
    "docs",
    "doc_entities",
    "hardware_clusters",
    "cluster_members",
    "ip_addresses",
  ];
  const [row] = await sql.unsafe(`select ${tables.map((t) => `(select count(*) from "${t}")`).join(" + ")} as n`);
  return Number(row!.n);
}

const gc = (globalThis as { gc?: () => void }).gc;

/**
 * Samples this process's RSS and heap every 25 ms while `fn` runs; answers the peaks above the start.
 * With `live` (and --expose-gc) each sample, every 100 ms, follows a full collection, so the heap
 * figure is what is still referenced rather than garbage V8 has not collected yet.
 */
async function sampled<T>(fn: () => Promise<T>, live = false): Promise<{ value: T; ms: number; rssPeakMb: number; heapPeakMb: number }> {
  // Start from a collected heap so the peaks compare across sizes.
  gc?.();
  const start = process.memoryUsage();
  let rss = start.rss,
    heap = start.heapUsed;
  const sample = () => {
    if (live) gc?.();
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  const timer = setInterval(sample, live ? 100 : 25);
  const t = performance.now();
  try {
    const value = await fn();
    sample();
    return { value, ms: performance.now() - t, rssPeakMb: (rss - start.rss) / MB, heapPeakMb: (heap - start.heapUsed) / MB };
  } finally {
    clearInterval(timer);
  }
}

/** The app of a runtime on `url`, with an administrator's token; requests come from 127.0.0.131. */
async function appOn(url: string) {
  const runtime = await openRuntime(
    parseConfig(
      { DATABASE_URL: url, LOG_LEVEL: "error", DB_POOL_MAX: "4", SVC_SETUP_TOKEN: "bench-setup-token", SVC_VAULT_KEY: TEST_VAULT_KEY },
      "bench",
    ),
  );
  runtime.deps.lifecycle.markReady();
  Object.assign(runtime.deps, { peerAddress: () => "127.0.0.131" });
  const app = createApp(runtime.deps);
  const init = await app.request("/api/v1/bootstrap/initialize", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "bench@example.com", password: "benchmark admin password", setup_token: "bench-setup-token" }),
  });
  const token = ((await init.json()) as { token: string }).token;
  return { app, token, close: () => runtime.close() };
}

async function exportTo(app: Awaited<ReturnType<typeof appOn>>, file: string): Promise<number> {
  const res = await app.app.request("/api/v1/admin/export", { headers: { authorization: `Bearer ${app.token}` } });
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  const out = createWriteStream(file);
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!out.write(value)) await new Promise<void>((r) => out.once("drain", () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return statSync(file).size;
}

export async function run(_ctx: BenchContext): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), "svc-export-bench-"));
  try {
    for (const size of SIZES) {
      const source = await createBenchDatabase(`cp_bench_xi_src_${process.pid}`);
      const target = await createBenchDatabase(`cp_bench_xi_dst_${process.pid}`);
      const file = join(dir, `export-${size}.json`);
      try {
        const objects = await seedLargeInventory(source.sql, size);
        const src = await appOn(source.url);
        const exp = await sampled(() => exportTo(src, file));
        // Again with a collection before every sample: the live heap, which is what must stay flat.
        const liveExp = gc ? await sampled(() => exportTo(src, file), true) : undefined;
        await src.close();
        rows.push({
          name: `export ${objects} objects`,
          total_ms: Math.round(exp.ms),
          note: `${(exp.value / MB).toFixed(1)} MB document; peak above start: RSS +${exp.rssPeakMb.toFixed(0)} MB, heap +${exp.heapPeakMb.toFixed(0)} MB, live heap +${liveExp ? liveExp.heapPeakMb.toFixed(1) : "? (run with --expose-gc)"} MB (target < 10 s)`,
        });
        const dst = await appOn(target.url);
        const imp = await sampled(async () => {
          const body = `{"data":${readFileSync(file, "utf8")}}`;
          const res = await dst.app.request("/api/v1/admin/import", {
            method: "POST",
            headers: { authorization: `Bearer ${dst.token}`, "content-type": "application/json" },
            body,
          });
          if (res.status !== 201) throw new Error(`import answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
          return (await res.json()) as { kinds: Record<string, { created: number }> };
        });
        const created = Object.values(imp.value.kinds).reduce((a, k) => a + k.created, 0);
        const [count] = await target.sql`select count(*)::int as n from hardware`;
        await dst.close();
        rows.push({
          name: `import ${objects} objects into an empty database`,
          total_ms: Math.round(imp.ms),
          note: `${created} rows created (${count!.n} hardware); peak above start: RSS +${imp.rssPeakMb.toFixed(0)} MB, heap +${imp.heapPeakMb.toFixed(0)} MB (target < 30 s)`,
        });
      } finally {
        await source.drop();
        await target.drop();
        rmSync(file, { force: true });
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

// Standalone: `node tests/bench/export-import.bench.ts` runs this benchmark alone, without the shared
// bench server (it needs none: the app is driven in process).
if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await run(undefined as unknown as BenchContext);
  console.log(
    ["| operation | total ms | note |", "|---|---:|---|", ...rows.map((r) => `| ${r.name} | ${r.total_ms ?? ""} | ${r.note ?? ""} |`)].join(
      "\n",
    ),
  );
  process.exit(0);
}
