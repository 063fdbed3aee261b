// The CVE feed import (issue 17 item 1; issue 36 item 7): reads each configured source (a file path
// through Deps.cveFeed, an http(s) URL streamed through the outbound policy), streams its
// `vulnerabilities` (nvd-stream.ts) and stages them (cve_sync_staging, batches of set-based statements
// with one JSON parameter each). Only when every source parsed to its end is the staging applied, in one
// transaction with the feed state's advance and the audit: Rejected CVEs deleted, the rest upserted only
// where lastModified moved forward (ON CONFLICT ... WHERE), and the cpeMatch rows of exactly the written
// CVEs replaced. A sync that fails (a truncated feed, a pin mismatch, a source that cannot be read, a
// drain) drops the staging and changes no CVE. When the previous sync covered the same sources
// completely, records not newer than its cursor are skipped before reaching the database.
import { eq, sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { cveFeedState } from "../../db/schema/index.ts";
import { type FeedSource, parseFeedSource } from "../../domain/cve/feed-source.ts";
import {
  type CpeMatchRow,
  type CveRow,
  isRejected,
  type NvdCve,
  NvdRecordError,
  nvdTime,
  toCpeMatchRows,
  toCveRow,
} from "../../domain/cve/nvd.ts";
import type { Logger } from "../../logger.ts";
import type { OutboundHttp } from "../../net/outbound.ts";
import { readSetting } from "../../settings/read.ts";
import { readOutboundPolicy } from "../integrations/outbound-policy.ts";
import { throwIfStopped } from "../jobs/job.ts";
import { JOBS_SCOPE } from "../jobs/scope.ts";
import type { VerbContext } from "../verb-context.ts";
import { defineVerb, type VerbScope } from "../verb.ts";
import type { CveFeedFiles } from "./feed-files.ts";
import { verifySha256 } from "./feed-pin.ts";
import { readFeedRow } from "./feed-state.ts";
import { type NvdHeader, nvdItems } from "./nvd-stream.ts";

export const DEFAULT_BATCH = 1000;
/** A URL source is streamed (never held whole); past this many bytes on the wire it is refused. */
export const MAX_URL_BYTES = 2 * 1024 * 1024 * 1024;
const URL_TIMEOUT_MS = 30 * 60 * 1000;

export interface SyncEnv {
  ctx: VerbContext;
  outbound: OutboundHttp;
  files?: CveFeedFiles | undefined;
  logger?: Logger | undefined;
  signal?: AbortSignal | undefined;
  /** The sources to read; default the cve_feed_sources setting. */
  sources?: readonly string[];
  batchSize?: number;
  /** Default MAX_URL_BYTES. */
  maxUrlBytes?: number;
}

export interface SyncCounts {
  read: number;
  inserted: number;
  updated: number;
  unchanged: number;
  skipped_by_cursor: number;
  removed: number;
  invalid: number;
  cpe_rows: number;
}

export interface SyncResult {
  generation: number;
  sources: string[];
  counts: SyncCounts;
  changed_ids: number;
  newest_modified_at: string | null;
  invalid_examples: string[];
}

export class CveSyncError extends Error {
  override name = "CveSyncError";
}

async function openSource(env: SyncEnv, source: FeedSource, label: string): Promise<ReadableStream<Uint8Array>> {
  let stream: ReadableStream<Uint8Array>;
  if (source.transport !== "file") {
    const policy = await readOutboundPolicy(env.ctx.db);
    const maxBytes = env.maxUrlBytes ?? MAX_URL_BYTES;
    const res = await env.outbound.stream({
      url: source.location,
      method: "GET",
      timeoutMs: URL_TIMEOUT_MS,
      maxBytes,
      policy,
      signal: env.signal,
      headers: { accept: "application/json, application/gzip" },
    });
    if (res.status !== 200) {
      await res.body.cancel();
      throw new CveSyncError(`${label} answered HTTP ${res.status}.`);
    }
    stream = res.body;
  } else {
    if (!env.files)
      throw new CveSyncError(`${label}: file sources need the Node server (this process has no file access); use an http(s) URL.`);
    stream = await env.files.open(source.location, env.signal);
  }
  return source.sha256 ? verifySha256(stream, source.sha256, label) : stream;
}

const clearStaging = (tx: VerbScope["tx"]) => tx.execute(sql`truncate cve_sync_staging, cve_sync_staging_matches`);

/** The attempt begins: last_attempt_at now (the row created on the first sync), the staging emptied of a crashed run's rows. */
const beginAttempt = defineVerb<void, void>({ scope: JOBS_SCOPE }, async ({ tx, now }) => {
  await tx
    .insert(cveFeedState)
    .values({ id: 1, last_attempt_at: now })
    .onConflictDoUpdate({ target: cveFeedState.id, set: { last_attempt_at: now } });
  await clearStaging(tx);
});

/** A staged record: a CVE row, or a Rejected CVE (rejected, its other fields empty) that the apply deletes. */
type StagedRow = CveRow & { rejected: boolean };

/**
 * One batch staged in one transaction: a CVE read twice keeps its newer record. Answers how many of
 * the batch were staged (the rest were older duplicates).
 */
const stageBatch = defineVerb<StagedRow[], number>({ scope: JOBS_SCOPE }, async ({ tx }, rows) => {
  if (!rows.length) return 0;
  const written = await queryRows<{ cve_id: string }>(
    tx,
    sql`insert into cve_sync_staging (cve_id, rejected, published_at, last_modified_at, vuln_status, summary, severity, cvss_score, cvss_vector, configurations)
      select r.cve_id, r.rejected, r.published_at, r.last_modified_at, r.vuln_status, r.summary, r.severity, r.cvss_score, r.cvss_vector, coalesce(r.configurations, '[]'::jsonb)
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(cve_id text, rejected boolean, published_at timestamptz, last_modified_at timestamptz, vuln_status text, summary text, severity text, cvss_score real, cvss_vector text, configurations jsonb)
      on conflict (cve_id) do update set rejected = excluded.rejected, published_at = excluded.published_at, last_modified_at = excluded.last_modified_at, vuln_status = excluded.vuln_status,
        summary = excluded.summary, severity = excluded.severity, cvss_score = excluded.cvss_score, cvss_vector = excluded.cvss_vector, configurations = excluded.configurations
      where cve_sync_staging.last_modified_at < excluded.last_modified_at
      returning cve_id`,
  );
  // Each match row carries its record's last_modified_at: the apply takes only those of the record kept,
  // so a replaced record's rows need no delete (and the table no index).
  const byId = new Map(rows.map((r) => [r.cve_id, r]));
  const matches: (CpeMatchRow & { last_modified_at: string })[] = written.flatMap((w) => {
    const row = byId.get(w.cve_id)!;
    return row.rejected ? [] : toCpeMatchRows(w.cve_id, row.configurations).map((m) => ({ ...m, last_modified_at: row.last_modified_at }));
  });
  if (matches.length)
    await tx.execute(sql`insert into cve_sync_staging_matches (cve_id, last_modified_at, config_index, node_index, criteria, part, vendor, product, version, version_start_including, version_start_excluding, version_end_including, version_end_excluding, vulnerable)
      select * from jsonb_to_recordset(${JSON.stringify(matches)}::jsonb) as r(cve_id text, last_modified_at timestamptz, config_index int, node_index int, criteria text, part text, vendor text, product text, version text,
        version_start_including text, version_start_excluding text, version_end_including text, version_end_excluding text, vulnerable boolean)`);
  return written.length;
});

interface Applied {
  inserted: number;
  updated: number;
  removed: number;
  cpe_rows: number;
  /** Non-rejected records staged (each either inserted, updated or unchanged). */
  staged: number;
}

/**
 * The staging applied to the live tables (inside finishSync's transaction). Rows carrying this sync's
 * generation before it applies were left by a failed sync of the earlier, unstaged import: they are
 * deleted first (what this feed still holds comes back through the upsert). The rows the upsert
 * writes carry the generation, which selects the CVEs whose cpeMatch rows are replaced.
 */
async function applyStaging(tx: VerbScope["tx"], generation: number): Promise<Applied> {
  const [leftover] = await queryRows<{ n: number }>(
    tx,
    sql`with d as (delete from cve_entries where generation >= ${generation} returning 1) select count(*)::int as n from d`,
  );
  const [gone] = await queryRows<{ n: number }>(
    tx,
    sql`with d as (delete from cve_entries e using cve_sync_staging s where s.rejected and e.cve_id = s.cve_id returning 1) select count(*)::int as n from d`,
  );
  const [written] = await queryRows<{ inserted: number; updated: number }>(
    tx,
    sql`with w as (
        insert into cve_entries (cve_id, published_at, last_modified_at, vuln_status, summary, severity, cvss_score, cvss_vector, configurations, generation)
        select s.cve_id, s.published_at, s.last_modified_at, s.vuln_status, s.summary, s.severity, s.cvss_score, s.cvss_vector, s.configurations, ${generation}
        from cve_sync_staging s where not s.rejected
        on conflict (cve_id) do update set published_at = excluded.published_at, last_modified_at = excluded.last_modified_at, vuln_status = excluded.vuln_status,
          summary = excluded.summary, severity = excluded.severity, cvss_score = excluded.cvss_score, cvss_vector = excluded.cvss_vector,
          configurations = excluded.configurations, generation = excluded.generation
        where cve_entries.last_modified_at < excluded.last_modified_at
        returning (xmax = 0) as inserted)
      select (count(*) filter (where inserted))::int as inserted, (count(*) filter (where not inserted))::int as updated from w`,
  );
  const [staged] = await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from cve_sync_staging where not rejected`);
  let cpeRows = 0;
  if (written!.inserted + written!.updated > 0) {
    if (written!.updated > 0)
      await tx.execute(sql`delete from cve_cpe_matches m using cve_entries e where e.generation = ${generation} and m.cve_id = e.cve_id`);
    const [ins] = await queryRows<{ n: number }>(
      tx,
      sql`with i as (
          insert into cve_cpe_matches (cve_id, config_index, node_index, criteria, part, vendor, product, version, version_start_including, version_start_excluding, version_end_including, version_end_excluding, vulnerable)
          select m.cve_id, m.config_index, m.node_index, m.criteria, m.part, m.vendor, m.product, m.version, m.version_start_including, m.version_start_excluding, m.version_end_including, m.version_end_excluding, m.vulnerable
          from cve_sync_staging_matches m join cve_entries e on e.cve_id = m.cve_id and e.last_modified_at = m.last_modified_at where e.generation = ${generation}
          returning 1)
        select count(*)::int as n from i`,
    );
    cpeRows = ins!.n;
  }
  await clearStaging(tx);
  return { inserted: written!.inserted, updated: written!.updated, removed: leftover!.n + gone!.n, cpe_rows: cpeRows, staged: staged!.n };
}

interface Finish {
  generation: number;
  newest: string | null;
  sources: string[];
  counts: SyncCounts;
}

/** The sync completed: the staging applied, the feed state advanced and the sync audited with its counts, in one transaction. */
const finishSync = defineVerb<Finish, SyncCounts>({ scope: JOBS_SCOPE }, async (s, f) => {
  const applied = await applyStaging(s.tx, f.generation);
  const counts: SyncCounts = {
    ...f.counts,
    inserted: applied.inserted,
    updated: applied.updated,
    removed: applied.removed,
    cpe_rows: applied.cpe_rows,
    unchanged: f.counts.unchanged + applied.staged - applied.inserted - applied.updated,
  };
  await s.tx
    .update(cveFeedState)
    .set({
      generation: f.generation,
      newest_modified_at: f.newest ? new Date(f.newest) : null,
      sources: f.sources,
      coverage_complete: true,
      completed_at: s.now,
      last_success_at: s.now,
      last_error: null,
      last_counts: counts,
    })
    .where(eq(cveFeedState.id, 1));
  s.audit({
    action: "cve.sync",
    category: "jobs",
    level: "info",
    entity_type: "cve_feed",
    entity_id: String(f.generation),
    diff: { sources: f.sources.map(redact), ...counts },
  });
  return counts;
});

/**
 * The sync failed: the staging is dropped (no CVE changed), the error kept (status "incomplete" until a
 * sync completes) and audited. The cursor stays trusted: the tables still hold the last completed sync.
 */
const failSync = defineVerb<{ error: string; read: SyncCounts }, void>({ scope: JOBS_SCOPE }, async (s, { error, read }) => {
  await clearStaging(s.tx);
  await s.tx
    .update(cveFeedState)
    .set({ last_error: error.slice(0, 2000) })
    .where(eq(cveFeedState.id, 1));
  s.audit({
    action: "cve.sync",
    category: "jobs",
    level: "warning",
    entity_type: "cve_feed",
    diff: { error: error.slice(0, 500), read: read.read, invalid: read.invalid, skipped_by_cursor: read.skipped_by_cursor, imported: 0 },
  });
});

const laterOf = (a: string | null, b: string) => (a === null || b > a ? b : a);

/** Runs one sync to its end; throws (after recording the failure, with nothing imported) when a source cannot be read whole. */
export async function syncCveFeed(env: SyncEnv): Promise<SyncResult> {
  const { ctx } = env;
  const sources = [...(env.sources ?? (await readSetting(ctx.db, "cve_feed_sources")))];
  if (sources.length === 0)
    throw new CveSyncError(
      "No CVE feed source is configured (setting cve_feed_sources: file paths or http(s) URLs of NVD CVE API 2.0 JSON).",
    );
  await beginAttempt({ ctx });
  const before = await readFeedRow(ctx.db);
  const generation = (before?.generation ?? 0) + 1;
  const sameSources = JSON.stringify(before?.sources ?? []) === JSON.stringify(sources);
  // The cursor is trusted only when the previous sync read these same sources completely.
  const cursor = before?.coverage_complete && sameSources && before.newest_modified_at ? before.newest_modified_at.toISOString() : null;
  const counts: SyncCounts = { read: 0, inserted: 0, updated: 0, unchanged: 0, skipped_by_cursor: 0, removed: 0, invalid: 0, cpe_rows: 0 };
  const invalid: string[] = [];
  let newest: string | null = before?.newest_modified_at?.toISOString() ?? null;
  const size = env.batchSize ?? DEFAULT_BATCH;
  try {
    for (const source of sources) {
      const label = redact(source);
      const header: NvdHeader = {};
      let pending = new Map<string, StagedRow>();
      const flush = async () => {
        throwIfStopped(env.signal);
        const rows = [...pending.values()];
        counts.unchanged += rows.length - (await stageBatch({ ctx, input: rows }));
        pending = new Map();
      };
      // Within a batch a CVE listed twice keeps its newest record (one statement cannot write a row twice).
      const stage = (row: StagedRow) => {
        const prev = pending.get(row.cve_id);
        if (!prev || prev.last_modified_at < row.last_modified_at) pending.set(row.cve_id, row);
        else counts.unchanged++;
      };
      const stream = await openSource(env, parseFeedSource(source), label);
      for await (const cve of nvdItems(stream, header, env.signal)) {
        counts.read++;
        if (isRejected(cve)) {
          // No time on a Rejected record: it wins over any other of the same CVE in this sync.
          if (typeof cve.id === "string")
            stage({ ...REJECTED_ROW, cve_id: cve.id, last_modified_at: nvdTime(cve.lastModified) ?? "infinity" });
        } else {
          let row: CveRow;
          try {
            row = toCveRow(cve as NvdCve);
          } catch (e) {
            if (!(e instanceof NvdRecordError)) throw e;
            counts.invalid++;
            if (invalid.length < 10) invalid.push(e.message);
            continue;
          }
          newest = laterOf(newest, row.last_modified_at);
          if (cursor && row.last_modified_at <= cursor) {
            counts.skipped_by_cursor++;
            continue;
          }
          stage({ ...row, rejected: false });
        }
        if (pending.size >= size) await flush();
      }
      if (pending.size) await flush();
      env.logger?.info("cve feed source read", { source: label, total_results: header.totalResults, read: counts.read });
    }
  } catch (e) {
    const message = (e instanceof Error ? e.message || e.name : String(e)) || "The sync failed.";
    await failSync({ ctx, input: { error: message, read: counts } });
    throw e;
  }
  const final = await finishSync({ ctx, input: { generation, newest, sources, counts } });
  return {
    generation,
    sources: sources.map(redact),
    counts: final,
    changed_ids: final.inserted + final.updated,
    newest_modified_at: newest,
    invalid_examples: invalid,
  };
}

const REJECTED_ROW: Omit<StagedRow, "cve_id" | "last_modified_at"> = {
  rejected: true,
  published_at: null,
  vuln_status: "Rejected",
  summary: null,
  severity: null,
  cvss_score: null,
  cvss_vector: null,
  configurations: [],
};

/** A source as audit entries, logs and job details show it: a URL without its credentials and query (which may carry an API key). */
export function redact(source: string): string {
  const { location, transport } = parseFeedSource(source);
  if (transport === "file") return location;
  try {
    const url = new URL(location);
    return `${url.protocol}//${url.host}${url.pathname}${url.search ? "?…" : ""}`;
  } catch {
    return location.replace(/\?.*$/, "?…");
  }
}
