// The reads of the cve group: the feed's status (the reference's older keys and the FeedState block),
// the search (paged, by text over id and summary, vendor, product, severity; every filter indexed), and
// one asset's assessment.
import { type SQL, sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { normaliseName } from "../../domain/cve/cpe.ts";
import { type FeedTransport, parseFeedSource } from "../../domain/cve/feed-source.ts";
import { readSetting } from "../../settings/read.ts";
import { ApiError } from "../../errors.ts";
import { defineRead } from "../verb.ts";
import { type AssessmentResult, assessMany } from "./assess.ts";
import { type FeedState, readFeedState } from "./feed-state.ts";
import { isEntityType, resolveAssets } from "./identity.ts";

export const CVE_READ_SCOPE = "read:cve";

/** How a configured source is read, without its address (viewers read the status; the URLs are administrators'). */
export interface SourceTransport {
  index: number;
  transport: FeedTransport;
  sha256_pinned: boolean;
}

export interface CveStatus extends FeedState {
  enabled: boolean;
  last_sync_at: string | null;
  sync_interval_hours: number;
  total_entries: number;
  sources: SourceTransport[];
  /** Some source is fetched over plain HTTP (readable and changeable on the way unless pinned). */
  plain_http: boolean;
}

export const cveStatus = defineRead<void, CveStatus>({ scope: CVE_READ_SCOPE }, async (ctx) => {
  const [feed, enabled, hours, configured] = await Promise.all([
    readFeedState(ctx.db, ctx.clock.now()),
    readSetting(ctx.db, "cve_enabled"),
    readSetting(ctx.db, "cve_sync_interval_hours"),
    readSetting(ctx.db, "cve_feed_sources"),
  ]);
  const sources = configured.map((text, index) => {
    const s = parseFeedSource(text);
    return { index, transport: s.transport, sha256_pinned: s.sha256 !== null };
  });
  return {
    enabled,
    last_sync_at: feed.last_success_at,
    sync_interval_hours: hours,
    total_entries: feed.total_records,
    ...feed,
    sources,
    plain_http: sources.some((s) => s.transport === "http"),
  };
});

export interface SearchInput {
  q?: string | undefined;
  vendor?: string | undefined;
  product?: string | undefined;
  severity?: string | undefined;
  limit: number;
  offset: number;
}

export interface SearchItem {
  cve_id: string;
  vendor: string | null;
  product: string | null;
  version_start: string | null;
  version_end: string | null;
  severity: string | null;
  cvss_score: number | null;
  summary: string | null;
  published_at: string | null;
  updated_at: string;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export const searchCves = defineRead<SearchInput, { items: SearchItem[]; total: number }>({ scope: CVE_READ_SCOPE }, async (ctx, input) => {
  const where: SQL[] = [];
  const q = input.q?.trim();
  if (q) {
    if (/^CVE-[\d-]*$/i.test(q)) {
      // An id or its beginning ("CVE-2021-44228", "CVE-2021-44"): a range of the primary key.
      const prefix = q.toUpperCase();
      where.push(sql`e.cve_id >= ${prefix} and e.cve_id < ${`${prefix}\u{10FFFF}`}`);
    } else {
      const pattern = `%${likeEscape(q.toLowerCase())}%`;
      where.push(sql`lower(e.summary) like ${pattern}`);
    }
  }
  if (input.severity) where.push(sql`e.severity = ${input.severity}`);
  const vendor = input.vendor ? normaliseName(input.vendor) : null;
  const product = input.product ? normaliseName(input.product) : null;
  const matchFilter = sql.join(
    [sql`m.cve_id = e.cve_id`, ...(vendor ? [sql`m.vendor = ${vendor}`] : []), ...(product ? [sql`m.product = ${product}`] : [])],
    sql` and `,
  );
  if (vendor || product) where.push(sql`exists (select 1 from cve_cpe_matches m where ${matchFilter})`);
  const filter = where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``;
  const [rows, count] = await Promise.all([
    queryRows<Omit<SearchItem, "published_at" | "updated_at"> & { published_at: Date | string | null; updated_at: Date | string }>(
      ctx.db,
      sql`select e.cve_id, m.vendor, m.product, coalesce(m.version_start_including, m.version_start_excluding) as version_start,
          coalesce(m.version_end_including, m.version_end_excluding) as version_end, e.severity, e.cvss_score, e.summary, e.published_at, e.last_modified_at as updated_at
        from cve_entries e
        left join lateral (select m.vendor, m.product, m.version_start_including, m.version_start_excluding, m.version_end_including, m.version_end_excluding
          from cve_cpe_matches m where ${matchFilter} order by m.vulnerable desc, m.id limit 1) m on true
        ${filter}
        order by e.published_at desc nulls last, e.cve_id desc nulls last limit ${input.limit} offset ${input.offset}`,
    ),
    queryRows<{ n: number }>(ctx.db, sql`select count(*)::int as n from cve_entries e ${filter}`),
  ]);
  const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
  return { items: rows.map((r) => ({ ...r, published_at: iso(r.published_at), updated_at: iso(r.updated_at)! })), total: count[0]?.n ?? 0 };
});

/** GET /cve/entity/{type}/{id}: 404 for a missing asset of a supported type; another type is "unassessed". */
export const assessEntity = defineRead<{ entity_type: string; entity_id: number }, AssessmentResult>(
  { scope: CVE_READ_SCOPE },
  async (ctx, { entity_type, entity_id }) => {
    const now = ctx.clock.now();
    const feed = await readFeedState(ctx.db, now);
    if (!isEntityType(entity_type)) {
      return {
        state: "unassessed",
        reason_code: "identity_missing",
        identity: null,
        identity_revision: null,
        feed_generation: feed.generation,
        feed_age_seconds: feed.age_seconds,
        assessed_at: now.toISOString(),
        findings: [],
        total: 0,
        completeness: "none",
        limitations: [`Only hardware, compute_unit and service are assessed, not ${entity_type}.`],
        items: [],
      };
    }
    const [asset] = await resolveAssets(ctx.db, entity_type, [entity_id]);
    if (!asset)
      throw ApiError.notFound(
        entity_type === "compute_unit" ? "Compute unit" : entity_type === "service" ? "Service" : "Hardware",
        entity_id,
      );
    const result = (await assessMany(ctx.db, feed, [{ key: 0, identity: asset.identity }], now)).get(0)!;
    const { uncertain: _, ...answer } = result;
    return answer;
  },
);
