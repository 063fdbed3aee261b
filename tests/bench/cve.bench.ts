// CVE feed import and assessment at NVD's size (issue 17): ~300,000 CVEs generated in the recorded
// NVD CVE API 2.0 format (tests/fixtures/nvd/synthetic.ts, plus the real records of the fixture) into a
// gzip file, imported through the same path as POST /cve/sync (streamed, staged, applied whole), re-synced
// (every record skipped by the lastModified cursor), then 10,000 assets with operator identities
// assessed through the (vendor, product) candidate index. Targets: import < 3 min, assessment < 30 s.
// A dedicated database (dropped afterwards); `npm run bench -- cve`, or `node tests/bench/cve.bench.ts`
// alone (CVE_BENCH_N changes the number of CVEs).
import { createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGzip } from "node:zlib";
import postgres from "postgres";
import { cryptoRandom, systemClock } from "../../shared/clock.ts";
import { parseConfig } from "../../shared/config.ts";
import { assessMany } from "../../shared/verbs/cve/assess.ts";
import { readFeedState } from "../../shared/verbs/cve/feed-state.ts";
import { resolveAssets } from "../../shared/verbs/cve/identity.ts";
import { type SearchInput, searchCves } from "../../shared/verbs/cve/reads.ts";
import { syncCveFeed } from "../../shared/verbs/cve/sync.ts";
import { systemContext } from "../../shared/verbs/verb-context.ts";
import { nodeOutboundHttp } from "../../net/outbound-http.ts";
import { nodeCveFeedFiles } from "../../runtime/cve/feed-files.ts";
import { openDatabase } from "../../runtime/database.ts";
import { applyMigrations } from "../../sidecar/startup/migrate.ts";
import { REAL_RECORDS } from "../fixtures/nvd/real-records.ts";
import { productPool, rng, syntheticRecord } from "../fixtures/nvd/synthetic.ts";
import { databaseUrl, PG_ADMIN_URL } from "../helpers/env.ts";
import type { BenchContext, BenchRow } from "./harness.ts";

const N = Number(process.env.CVE_BENCH_N ?? "300000");
const ASSETS = Number(process.env.CVE_BENCH_ASSETS ?? "10000");
/** Distinct (vendor, product) pairs: NVD's CPE dictionary names some tens of thousands of products with CVEs. */
const PRODUCTS = productPool(20_000);

async function writeFeed(file: string): Promise<number> {
  const gz = createGzip({ level: 1 });
  const out = createWriteStream(file);
  gz.pipe(out);
  const write = (s: string) => (gz.write(s) ? Promise.resolve() : new Promise<void>((r) => gz.once("drain", () => r())));
  await write(
    `{"resultsPerPage":${N},"startIndex":0,"totalResults":${N},"format":"NVD_CVE","version":"2.0","timestamp":"2026-11-20T00:00:00.000","vulnerabilities":[`,
  );
  for (let i = 0; i < REAL_RECORDS.length; i++) await write((i ? "," : "") + JSON.stringify(REAL_RECORDS[i]));
  for (let i = 0; i < N - REAL_RECORDS.length; i++)
    await write(`,${JSON.stringify(syntheticRecord(i, { products: PRODUCTS, rejectedEvery: 1000 }))}`);
  await write("]}");
  gz.end();
  await new Promise<void>((r) => out.on("close", () => r()));
  return statSync(file).size;
}

export async function run(_ctx?: BenchContext): Promise<BenchRow[]> {
  const name = `cp_bench_cve_${process.pid}`;
  const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
  const dir = mkdtempSync(join(tmpdir(), "svc-cve-bench-"));
  await admin.unsafe(`create database "${name}"`);
  const database = await openDatabase(parseConfig({ DATABASE_URL: databaseUrl(name), DB_POOL_MAX: "4" }));
  try {
    await applyMigrations(database);
    const file = join(dir, "nvdcve-2.0-bench.json.gz");
    let t = performance.now();
    const bytes = await writeFeed(file);
    const genMs = performance.now() - t;
    const ctx = systemContext({ db: database.db, clock: systemClock, random: cryptoRandom });
    const env = { ctx, outbound: nodeOutboundHttp(), files: nodeCveFeedFiles(), sources: [file] };
    t = performance.now();
    const first = await syncCveFeed(env);
    const importMs = performance.now() - t;
    t = performance.now();
    const second = await syncCveFeed(env);
    const resyncMs = performance.now() - t;

    // Searches as GET /cve/search runs them: median of 5 runs each.
    const searches: [string, SearchInput][] = [
      ["search: text in summaries", { q: "product1234 by", limit: 50, offset: 0 }],
      ["search: vendor + product", { vendor: "vendor17", product: "product17", limit: 50, offset: 0 }],
      ["search: severity, page at offset 5000", { severity: "high", limit: 50, offset: 5000 }],
      ["search: id prefix", { q: "CVE-2099-00012", limit: 50, offset: 0 }],
      ["search: no filter, first page", { limit: 50, offset: 0 }],
    ];
    const searchRows: BenchRow[] = [];
    for (const [label, input] of searches) {
      const times: number[] = [];
      let total = 0;
      for (let i = 0; i < 5; i++) {
        const s = performance.now();
        total = (await searchCves({ ctx, input })).total;
        times.push(performance.now() - s);
      }
      times.sort((x, y) => x - y);
      searchRows.push({ name: label, p50_ms: Math.round(times[2]! * 10) / 10, note: `total ${total}` });
    }

    // 10,000 services with operator identities over the product pool (some products with many CVEs).
    const r = rng(42);
    await database.sql!.unsafe(`insert into services (name, slug) select 'svc ' || g, 'svc-' || g from generate_series(1, ${ASSETS}) g`);
    const rows = Array.from({ length: ASSETS }, (_, i) => {
      const [vendor, product] = PRODUCTS[Math.floor(r() * PRODUCTS.length)]!;
      return { entity_id: i + 1, vendor, product, version: `${1 + Math.floor(r() * 5)}.${Math.floor(r() * 10)}.${Math.floor(r() * 20)}` };
    });
    await database.sql!`insert into asset_identities (entity_type, entity_id, vendor, product, version, provenance)
      select 'service', r.entity_id, r.vendor, r.product, r.version, 'operator' from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(entity_id int, vendor text, product text, version text)`;
    t = performance.now();
    const now = new Date();
    const feed = await readFeedState(database.db, now);
    const assets = await resolveAssets(database.db, "service");
    const results = await assessMany(
      database.db,
      feed,
      assets.map((a) => ({ key: a.entity_id, identity: a.identity })),
      now,
    );
    const assessMs = performance.now() - t;
    let findings = 0;
    let certain = 0;
    for (const res of results.values()) {
      findings += res.total;
      certain += res.findings.filter((f) => !res.uncertain.has(f.cve_id)).length;
    }
    const [{ n: cpeRows }] = (await database.sql!`select count(*)::int as n from cve_cpe_matches`) as unknown as [{ n: number }];
    const c = first.counts;
    return [
      { name: `generate ${N} CVEs (gzip level 1)`, total_ms: Math.round(genMs), note: `${(bytes / 1048576).toFixed(1)} MB gzip` },
      {
        name: "import (streamed, staged, applied in one transaction)",
        total_ms: Math.round(importMs),
        rps: Math.round(c.read / (importMs / 1000)),
        note: `inserted ${c.inserted}, rejected skipped ${c.read - c.inserted - c.invalid}, ${cpeRows} cpe rows; target < 180000 ms`,
      },
      {
        name: "re-sync, nothing changed (cursor)",
        total_ms: Math.round(resyncMs),
        note: `skipped_by_cursor ${second.counts.skipped_by_cursor}, updated ${second.counts.updated}`,
      },
      ...searchRows,
      {
        name: `assess ${ASSETS} assets (indexed candidates)`,
        total_ms: Math.round(assessMs),
        rps: Math.round(ASSETS / (assessMs / 1000)),
        note: `${findings} findings (${certain} certain); target < 30000 ms`,
      },
    ];
  } finally {
    await database.provider.close();
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Alone: node tests/bench/cve.bench.ts
if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await run();
  console.log("| operation | total ms | p50 ms | per s | note |\n|---|---:|---:|---:|---|");
  for (const r of rows) console.log(`| ${r.name} | ${r.total_ms ?? ""} | ${r.p50_ms ?? ""} | ${r.rps ?? ""} | ${r.note ?? ""} |`);
  process.exit(0);
}
