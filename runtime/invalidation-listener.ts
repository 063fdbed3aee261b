// Keeps a process's in-memory cache honest: LISTEN on the channels that announce its changes and hand
// every notification on. The cache is used only while that LISTEN is up: a dedicated connection whose
// loss turns the cache off at once (`setLive(false)`), and which is re-established every second until
// it listens again (postgres.js's own `listen` re-listens quietly, without telling us that notifications
// may have been missed), hence not the generic helper of listen.ts. PGlite is one in-process session,
// so its LISTEN cannot drop. The credential cache (credential-invalidation.ts) and the status page
// cache (status-page-invalidation.ts) each run one, as workers of every Node process (node-deps.ts).
import postgres from "postgres";
import type { Logger } from "../shared/logger.ts";
import { answeredSockets, type NodeDatabase } from "./database.ts";
import type { Worker } from "./worker.ts";

const RETRY_MS = 1000;

export interface InvalidatedCache {
  /** A notification on one of the channels (its payload as sent). */
  notify(channel: string, payload: string): void;
  /** The LISTEN connected (true) or was lost (false). */
  setLive(live: boolean): void;
}

export interface ListenerPlan {
  name: string;
  channels: readonly string[];
  cache: InvalidatedCache;
  /** What the logs call the cache ("credential cache"). */
  what: string;
}

export function listenWhileUp(database: NodeDatabase, plan: ListenerPlan, logger: Logger, url?: string): Worker {
  const { name, channels, cache, what } = plan;
  const { pglite } = database;
  if (pglite) {
    let pending: Promise<(() => Promise<void>)[]> | undefined;
    return {
      name,
      start: () => {
        pending = Promise.all(channels.map((ch) => pglite.listen(ch, (payload) => cache.notify(ch, payload)))).then((unlisten) => {
          cache.setLive(true);
          return unlisten;
        });
      },
      stop: async () => {
        cache.setLive(false);
        for (const unlisten of (await pending) ?? []) await unlisten();
      },
    };
  }
  if (!url) return { name, start: () => {}, stop: async () => {} };

  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;
  // postgres.js connects lazily: creating the client opens nothing until start() LISTENs.
  const client = postgres(url, {
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    connect_timeout: 5,
    fetch_types: false,
    onnotice: () => {},
    // A server that hangs up before answering is a connection error here too (runtime/database.ts);
    // `socket` is documented but missing from postgres.js's typings.
    ...({ socket: answeredSockets() } as object),
    // Not in postgres.js's typings, but it is how a connection hands NotificationResponse messages on.
    ...({ onnotify: (channel: string, payload: string) => channels.includes(channel) && cache.notify(channel, payload) } as object),
    onclose: () => {
      cache.setLive(false);
      schedule();
    },
  });

  function schedule(): void {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void attempt();
    }, RETRY_MS);
  }

  async function attempt(): Promise<void> {
    try {
      for (const ch of channels) await client.unsafe(`listen "${ch}"`);
      if (stopped) return;
      cache.setLive(true);
      if (failures > 0) logger.info(`${what} listening again`, { after_failures: failures });
      failures = 0;
    } catch (e) {
      // Without the LISTEN the cache is off (or short-lived): slower, never wrong.
      if (failures++ === 0) logger.warn(`${what} off: cannot LISTEN for changes`, { error: (e as Error).message, channels });
      schedule();
    }
  }

  return {
    name,
    start: () => void attempt(),
    stop: async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      cache.setLive(false);
      await client.end({ timeout: 1 });
    },
  };
}
