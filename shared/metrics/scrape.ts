// One scrape (spec 4.3): a fresh registry built from stored data each time, nothing kept between
// scrapes. The counts come first from one query; the per-resource series follow page by page as a
// stream, so memory stays bounded however large the inventory is.
import type { DatabaseAccess, Db } from "../db/database.ts";
import { countsText } from "./counts.ts";
import { familyHeader } from "./exposition.ts";
import { MONITOR_FAMILIES } from "./monitor-gauges.ts";
import { PER_RESOURCE_FAMILIES } from "./per-resource.ts";
import { POWER_FAMILIES } from "./power-gauges.ts";
import { RACK_FAMILIES } from "./rack-gauges.ts";
import { PREFIX_FAMILY } from "./prefix-gauges.ts";

export const SCRAPE_PAGE_SIZE = 5000;

/** The exposition text in chunks: svc_info and the counts, then each per-resource family page by page. */
export async function* scrapeChunks(db: Db, version: string, pageSize = SCRAPE_PAGE_SIZE): AsyncGenerator<string> {
  yield await countsText(db, version);
  // The spec's per-resource families, then ours for the monitors (issue 12: monitor_up, monitor_response_ms)
  // and the racks, prefixes and power (issue 33: svc_rack_units, prefix_utilisation_percent,
  // svc_pdu_load_watts, svc_rack_power_watts).
  for (const family of [...PER_RESOURCE_FAMILIES, ...MONITOR_FAMILIES, ...RACK_FAMILIES, PREFIX_FAMILY, ...POWER_FAMILIES]) {
    yield familyHeader(family);
    yield* family.chunks(db, pageSize);
  }
}

/** The whole exposition as one string (tests and benchmarks; the endpoint streams). */
export async function scrapeText(db: Db, version: string, pageSize = SCRAPE_PAGE_SIZE): Promise<string> {
  const parts: string[] = [];
  for await (const chunk of scrapeChunks(db, version, pageSize)) parts.push(chunk);
  return parts.join("");
}

export interface ScrapeOptions {
  pageSize?: number;
  /** Told about a failure after the response has started (the stream then aborts). */
  onError?: (error: unknown) => void;
}

/**
 * A stream of the exposition on its own database lease, released when the stream ends, fails or is
 * cancelled. The first chunk (the counts query) is read before this resolves, so a database failure
 * still becomes an ordinary error response.
 */
export async function scrapeStream(
  database: DatabaseAccess,
  version: string,
  options: ScrapeOptions = {},
): Promise<ReadableStream<Uint8Array>> {
  const lease = database.lease();
  async function* leased(): AsyncGenerator<string> {
    try {
      yield* scrapeChunks(lease.db, version, options.pageSize);
    } finally {
      await lease.release();
    }
  }
  const chunks = leased();
  const encoder = new TextEncoder();
  const first = await chunks.next();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done) controller.close();
      else controller.enqueue(encoder.encode(first.value));
    },
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (e) {
        options.onError?.(e);
        controller.error(e);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
