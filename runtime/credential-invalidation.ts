// Keeps a process's credential cache honest: LISTEN on `credentials` (announced by the triggers of
// migration 0007) and flush on every notification. The cache is used only while that LISTEN is up: a
// dedicated connection whose loss turns the cache off at once, and which is re-established every
// second until it listens again (postgres.js's own `listen` re-listens quietly, without telling us that
// notifications may have been missed), hence not the generic helper of listen.ts. PGlite is one
// in-process session, so its LISTEN cannot drop. A worker of every Node process (runtime/node-deps.ts).
import postgres from "postgres";
import type { CredentialCache } from "../shared/identity/credential-cache.ts";
import type { Logger } from "../shared/logger.ts";
import { answeredSockets, type NodeDatabase } from "./database.ts";
import type { Worker } from "./worker.ts";

export const CREDENTIALS_CHANNEL = "credentials";
const RETRY_MS = 1000;

const NAME = "credential-invalidation";

export function listenForCredentialChanges(database: NodeDatabase, cache: CredentialCache, logger: Logger, url?: string): Worker {
  const { pglite } = database;
  if (pglite) {
    let pending: Promise<() => Promise<void>> | undefined;
    return {
      name: NAME,
      start: () => {
        pending = pglite
          .listen(CREDENTIALS_CHANNEL, () => cache.flush())
          .then((unlisten) => {
            cache.setLive(true);
            return unlisten;
          });
      },
      stop: async () => {
        cache.setLive(false);
        await (await pending)?.();
      },
    };
  }
  if (!url) return { name: NAME, start: () => {}, stop: async () => {} };

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
    ...({ onnotify: (channel: string) => channel === CREDENTIALS_CHANNEL && cache.flush() } as object),
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
      await client.unsafe(`listen "${CREDENTIALS_CHANNEL}"`);
      if (stopped) return;
      cache.setLive(true);
      if (failures > 0) logger.info("credential cache listening again", { after_failures: failures });
      failures = 0;
    } catch (e) {
      // Without the LISTEN every request looks its credential up: slower, never wrong.
      if (failures++ === 0) logger.warn("credential cache off: cannot LISTEN for credential changes", { error: (e as Error).message });
      schedule();
    }
  }

  return {
    name: NAME,
    start: () => void attempt(),
    stop: async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      cache.setLive(false);
      await client.end({ timeout: 1 });
    },
  };
}
