// The CVE feed import (issue 17 item 1): reads each configured source (a file path through Deps.cveFeed,
// an http(s) URL through the outbound policy), streams its `vulnerabilities` (nvd-stream.ts) and writes
// them in batches, each batch one short transaction of set-based statements (jsonb_to_recordset, one
// parameter however many rows): Rejected CVEs deleted, the rest upserted only where lastModified moved
// forward (ON CONFLICT ... WHERE), and the cpeMatch index rows of exactly the changed CVEs replaced.
// When the previous sync covered the same sources completely, records not newer than its cursor are
// skipped before reaching the database. The batches are not audited one by one (like retention's);
// the sync's end is, with its counts, in the transaction that advances the feed state.
import { eq, sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { cveFeedState } from "../../db/schema/index.ts";
import { type CpeMatchRow, type CveRow, isRejected, type NvdCve, NvdRecordError, toCpeMatchRows, toCveRow } from "../../domain/cve/nvd.ts";
import type { Logger } from "../../logger.ts";
import type { OutboundHttp } from "../../net/outbound.ts";
import { readSetting } from "../../settings/read.ts";
import { readOutboundPolicy } from "../integrations/outbound-policy.ts";
import { JOBS_SCOPE, throwIfStopped } from "../jobs/job.ts";
import type { VerbContext } from "../verb-context.ts";
import { defineVerb } from "../verb.ts";
import { readFeedRow } from "./feed-state.ts";
import { type NvdHeader, nvdItems } from "./nvd-stream.ts";

/** Opens a feed file (Node: the file system); absent on the edge, where only URL sources can be read. */
export interface CveFeedFiles {
  open(path: string, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>>;
}

export const DEFAULT_BATCH = 1000;
/** A URL source is fetched whole through the outbound policy (which buffers): at most this many bytes. */
export const MAX_URL_BYTES = 512 * 1024 * 1024;
const URL_TIMEOUT_MS = 10 * 60 * 1000;

export interface SyncEnv {
  ctx: VerbContext;
  outbound: OutboundHttp;
  files?: CveFeedFiles | undefined;
  logger?: Logger | undefined;
  signal?: AbortSignal | undefined;
  /** The sources to read; default the cve_feed_sources setting. */
  sources?: readonly string[];
  batchSize?: number;
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

const isUrl = (s: string) => /^https?:\/\//i.test(s);

async function openSource(env: SyncEnv, source: string): Promise<ReadableStream<Uint8Array>> {
  if (isUrl(source)) {
    const policy = await readOutboundPolicy(env.ctx.db);
    const res = await env.outbound.request({ url: source, method: "GET", timeoutMs: URL_TIMEOUT_MS, maxBytes: MAX_URL_BYTES, policy, signal: env.signal, headers: { accept: "application/json, application/gzip" } });
    if (res.status !== 200) throw new CveSyncError(`${source} answered HTTP ${res.status}.`);
    const body = res.body;
    return new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(body);
        c.close();
      },
    });
  }
  if (!env.files) throw new CveSyncError(`${source}: file sources need the Node server (this process has no file access); use an http(s) URL.`);
  return env.files.open(source, env.signal);
}

/** The attempt begins: last_attempt_at now, the row created on the first sync. */
const beginAttempt = defineVerb<void, void>({ scope: JOBS_SCOPE }, async ({ tx, now }) => {
  await tx.insert(cveFeedState).values({ id: 1, last_attempt_at: now }).onConflictDoUpdate({ target: cveFeedState.id, set: { last_attempt_at: now } });
});

interface Batch {
  rows: CveRow[];
  rejected: string[];
  generation: number;
}

/** One batch in one transaction; answers the ids written (inserted or updated) and the counts. */
const applyBatch = defineVerb<Batch, { inserted: number; updated: number; removed: number; cpe_rows: number; changed: string[] }>({ scope: JOBS_SCOPE }, async ({ tx }, b) => {
  let removed = 0;
  if (b.rejected.length) {
    const gone = await queryRows<{ cve_id: string }>(tx, sql`delete from cve_entries where cve_id in (select jsonb_array_elements_text(${JSON.stringify(b.rejected)}::jsonb)) returning cve_id`);
    removed = gone.length;
  }
  if (!b.rows.length) return { inserted: 0, updated: 0, removed, cpe_rows: 0, changed: [] };
  const written = await queryRows<{ cve_id: string; inserted: boolean }>(
    tx,
    sql`insert into cve_entries (cve_id, published_at, last_modified_at, vuln_status, summary, severity, cvss_score, cvss_vector, configurations, generation)
      select r.cve_id, r.published_at, r.last_modified_at, r.vuln_status, r.summary, r.severity, r.cvss_score, r.cvss_vector, coalesce(r.configurations, '[]'::jsonb), ${b.generation}
      from jsonb_to_recordset(${JSON.stringify(b.rows)}::jsonb) as r(cve_id text, published_at timestamptz, last_modified_at timestamptz, vuln_status text, summary text, severity text, cvss_score real, cvss_vector text, configurations jsonb)
      on conflict (cve_id) do update set published_at = excluded.published_at, last_modified_at = excluded.last_modified_at, vuln_status = excluded.vuln_status,
        summary = excluded.summary, severity = excluded.severity, cvss_score = excluded.cvss_score, cvss_vector = excluded.cvss_vector,
        configurations = excluded.configurations, generation = excluded.generation
      where cve_entries.last_modified_at < excluded.last_modified_at
      returning cve_id, (xmax = 0) as inserted`,
  );
  const changed = written.map((w) => w.cve_id);
  const updatedIds = written.filter((w) => !w.inserted).map((w) => w.cve_id);
  if (updatedIds.length) await tx.execute(sql`delete from cve_cpe_matches where cve_id in (select jsonb_array_elements_text(${JSON.stringify(updatedIds)}::jsonb))`);
  const byId = new Map(b.rows.map((r) => [r.cve_id, r]));
  const matches: CpeMatchRow[] = changed.flatMap((id) => toCpeMatchRows(id, byId.get(id)!.configurations));
  if (matches.length)
    await tx.execute(sql`insert into cve_cpe_matches (cve_id, config_index, node_index, criteria, part, vendor, product, version, version_start_including, version_start_excluding, version_end_including, version_end_excluding, vulnerable)
      select * from jsonb_to_recordset(${JSON.stringify(matches)}::jsonb) as r(cve_id text, config_index int, node_index int, criteria text, part text, vendor text, product text, version text,
        version_start_including text, version_start_excluding text, version_end_including text, version_end_excluding text, vulnerable boolean)`);
  return { inserted: written.length - updatedIds.length, updated: updatedIds.length, removed, cpe_rows: matches.length, changed };
});

interface Finish {
  generation: number;
  newest: string | null;
  sources: string[];
  counts: SyncCounts;
}

/** The sync completed: the feed state advances, and the sync is audited with its counts. */
const finishSync = defineVerb<Finish, void>({ scope: JOBS_SCOPE }, async (s, f) => {
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
      last_counts: f.counts,
    })
    .where(eq(cveFeedState.id, 1));
  s.audit({ action: "cve.sync", category: "jobs", level: "info", entity_type: "cve_feed", entity_id: String(f.generation), diff: { sources: f.sources.map(redact), ...f.counts } });
});

/** The sync failed: the error is kept (status "incomplete" until a sync completes) and audited. */
const failSync = defineVerb<{ error: string; partial: SyncCounts }, void>({ scope: JOBS_SCOPE }, async (s, { error, partial }) => {
  await s.tx.update(cveFeedState).set({ last_error: error.slice(0, 2000), coverage_complete: false }).where(eq(cveFeedState.id, 1));
  s.audit({ action: "cve.sync", category: "jobs", level: "warning", entity_type: "cve_feed", diff: { error: error.slice(0, 500), ...partial } });
});

const laterOf = (a: string | null, b: string) => (a === null || b > a ? b : a);

/** Runs one sync to its end; throws (after recording the failure) when a source cannot be read. */
export async function syncCveFeed(env: SyncEnv): Promise<SyncResult> {
  const { ctx } = env;
  const sources = [...(env.sources ?? (await readSetting(ctx.db, "cve_feed_sources")))];
  if (sources.length === 0) throw new CveSyncError("No CVE feed source is configured (setting cve_feed_sources: file paths or http(s) URLs of NVD CVE API 2.0 JSON).");
  await beginAttempt({ ctx });
  const before = await readFeedRow(ctx.db);
  const generation = (before?.generation ?? 0) + 1;
  const sameSources = JSON.stringify(before?.sources ?? []) === JSON.stringify(sources);
  // The cursor is trusted only when the previous sync read these same sources completely.
  const cursor = before?.coverage_complete && sameSources && before.newest_modified_at ? before.newest_modified_at.toISOString() : null;
  const counts: SyncCounts = { read: 0, inserted: 0, updated: 0, unchanged: 0, skipped_by_cursor: 0, removed: 0, invalid: 0, cpe_rows: 0 };
  const invalid: string[] = [];
  let newest: string | null = before?.newest_modified_at?.toISOString() ?? null;
  let changedIds = 0;
  const size = env.batchSize ?? DEFAULT_BATCH;
  try {
    for (const source of sources) {
      const header: NvdHeader = {};
      let pending = new Map<string, CveRow>();
      let rejected: string[] = [];
      const flush = async () => {
        throwIfStopped(env.signal);
        const rows = [...pending.values()];
        const r = await applyBatch({ ctx, input: { rows, rejected, generation } });
        counts.inserted += r.inserted;
        counts.updated += r.updated;
        counts.unchanged += rows.length - r.inserted - r.updated;
        counts.removed += r.removed;
        counts.cpe_rows += r.cpe_rows;
        changedIds += r.changed.length;
        pending = new Map();
        rejected = [];
      };
      const stream = await openSource(env, source);
      for await (const cve of nvdItems(stream, header, env.signal)) {
        counts.read++;
        if (isRejected(cve)) {
          if (typeof cve.id === "string") rejected.push(cve.id);
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
          // Within a batch a CVE listed twice keeps its newest record (one statement cannot update a row twice).
          const prev = pending.get(row.cve_id);
          if (!prev || prev.last_modified_at < row.last_modified_at) pending.set(row.cve_id, row);
          else counts.unchanged++;
        }
        if (pending.size + rejected.length >= size) await flush();
      }
      if (pending.size || rejected.length) await flush();
      env.logger?.info("cve feed source read", { source: redact(source), total_results: header.totalResults, read: counts.read });
    }
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    await failSync({ ctx, input: { error: message, partial: counts } });
    throw e;
  }
  const redacted = sources.map(redact);
  await finishSync({ ctx, input: { generation, newest, sources, counts } });
  return { generation, sources: redacted, counts, changed_ids: changedIds, newest_modified_at: newest, invalid_examples: invalid };
}

/** A URL's query may carry an API key: shown without it. */
export function redact(source: string): string {
  return isUrl(source) ? source.replace(/\?.*$/, "?…") : source;
}
