// Keeps a process's status page cache (shared/status-pages/page-cache.ts) honest: LISTEN on `monitors`
// (state changes, monitor and maintenance window edits) and `status_pages` (page edits, incidents), and
// hand each notification to the cache, which forgets the pages concerned and tells their live streams.
// While that LISTEN is down the cache keeps answers 1 s only (invalidation-listener.ts).
import type { Logger } from "../shared/logger.ts";
import { MONITORS_CHANNEL, STATUS_PAGES_CHANNEL, type StatusPageCache } from "../shared/status-pages/page-cache.ts";
import type { NodeDatabase } from "./database.ts";
import { listenWhileUp } from "./invalidation-listener.ts";
import type { Worker } from "./worker.ts";

export function listenForStatusPageChanges(database: NodeDatabase, cache: StatusPageCache, logger: Logger, url?: string): Worker {
  return listenWhileUp(
    database,
    { name: "status-page-invalidation", channels: [MONITORS_CHANNEL, STATUS_PAGES_CHANNEL], cache, what: "status page cache" },
    logger,
    url,
  );
}
