// A public status page answer that proxies and browsers may keep briefly: an ETag of the body's bytes,
// `Cache-Control: public` with a max-age short enough for the 2 s target (a state change shows within
// it), and 304 on If-None-Match. The page and its JSON twin are also kept by this process
// (shared/status-pages/page-cache.ts, docs/adr/0459): prepared once, a hit costs no query and no hash.
import type { Context } from "hono";
import { bytesToBase64Url, utf8Bytes } from "../../../shared/auth/encoding.ts";
import { ApiError } from "../../../shared/errors.ts";
import type { Built, CachedPage, PreparedAnswer } from "../../../shared/status-pages/page-cache.ts";
import { type PageLookup, type SummarySources, statusPageSummary } from "../../../shared/verbs/status-pages/summary.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";

/**
 * What a proxy may keep. Not longer: with the server-side cache invalidated at once, this is most of a
 * change's delay through a proxy. No stale-while-revalidate: it would let a proxy show an older state.
 */
export const STATUS_PAGE_MAX_AGE_S = 1;
export const STATUS_PAGE_CACHE_CONTROL = `public, max-age=${STATUS_PAGE_MAX_AGE_S}`;

async function gzipped(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function prepareAnswer(body: string, contentType: string, extra: Record<string, string> = {}): Promise<PreparedAnswer> {
  const bytes = utf8Bytes(body);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const etag = `"${bytesToBase64Url(digest).slice(0, 27)}"`;
  const headers = {
    "Content-Type": contentType,
    ETag: etag,
    "Cache-Control": STATUS_PAGE_CACHE_CONTROL,
    Vary: "Accept-Encoding",
    ...extra,
  };
  // A representation of its own, so its own strong ETag (derived: the same bytes always gzip the same here).
  const gzEtag = `${etag.slice(0, -1)}-gz"`;
  return {
    bytes,
    etag,
    headers,
    gzip: { bytes: await gzipped(bytes), etag: gzEtag, headers: { ...headers, ETag: gzEtag, "Content-Encoding": "gzip" } },
  };
}

const acceptsGzip = (header: string | undefined) =>
  header !== undefined && /\bgzip\b/i.test(header) && !/\bgzip;\s*q=0(\.0*)?\b/i.test(header);

/** 304 when the client holds these bytes, else 200 with them (gzipped when the client takes it). */
export function answerWith(c: Context<AppEnv>, prepared: PreparedAnswer): Response {
  const gzipOk = c.get("deps").statusPageCache?.precompressed !== false;
  const chosen = prepared.gzip && gzipOk && acceptsGzip(c.req.header("accept-encoding")) ? prepared.gzip : prepared;
  const asked = c.req.header("if-none-match");
  if (asked) {
    const tags = asked.split(",").map((t) => t.trim().replace(/^W\//, ""));
    if (tags.includes(chosen.etag) || tags.includes("*")) return c.body(null, 304, chosen.headers);
  }
  return c.body(chosen.bytes, 200, chosen.headers);
}

export async function cachedAnswer(
  c: Context<AppEnv>,
  body: string,
  contentType: string,
  extra: Record<string, string> = {},
): Promise<Response> {
  return answerWith(c, await prepareAnswer(body, contentType, extra));
}

export type Summary = Awaited<ReturnType<typeof statusPageSummary>>;

/**
 * The answer kept under `key` (this process's cache; built each time where there is none), built from
 * the published page `by` finds by `render`; null answer when none does.
 */
export function cachedPage(
  c: Context<AppEnv>,
  key: string,
  by: PageLookup,
  render: (summary: Summary) => Promise<PreparedAnswer>,
): Promise<CachedPage> {
  const build = async (): Promise<Built> => {
    const sources: SummarySources = {};
    let summary: Summary;
    try {
      summary = await statusPageSummary({ ctx: verbContext(c), input: { ...by, sources } });
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return null;
      throw e;
    }
    return { answer: await render(summary), sources: { pageId: sources.pageId!, monitorIds: sources.monitorIds ?? [] } };
  };
  const cache = c.get("deps").statusPageCache;
  if (cache) return cache.get(key, build);
  return build().then((built) => (built ? { answer: built.answer, pageId: built.sources.pageId } : { answer: null, pageId: null }));
}

/** The JSON twin of the page with `slug`, as kept. */
export function summaryJson(c: Context<AppEnv>, slug: string): Promise<CachedPage> {
  const s = slug.toLowerCase();
  return cachedPage(c, `json:${s}`, { slug: s }, (summary) => prepareAnswer(JSON.stringify(summary), "application/json"));
}

/** The same 404 for an unknown slug and a draft (the verb's words). */
export const noSuchPage = () => new ApiError("RESOURCE_NOT_FOUND", "No such status page.");
