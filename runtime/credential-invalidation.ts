// Keeps a process's credential cache honest: LISTEN on `credentials` (announced by the triggers of
// migration 0007) and flush on every notification; while that LISTEN is down nothing is cached
// (invalidation-listener.ts). A worker of every Node process (runtime/node-deps.ts).
import type { CredentialCache } from "../shared/identity/credential-cache.ts";
import type { Logger } from "../shared/logger.ts";
import type { NodeDatabase } from "./database.ts";
import { listenWhileUp } from "./invalidation-listener.ts";
import type { Worker } from "./worker.ts";

export const CREDENTIALS_CHANNEL = "credentials";

export function listenForCredentialChanges(database: NodeDatabase, cache: CredentialCache, logger: Logger, url?: string): Worker {
  return listenWhileUp(
    database,
    {
      name: "credential-invalidation",
      channels: [CREDENTIALS_CHANNEL],
      cache: { notify: () => cache.flush(), setLive: (live) => cache.setLive(live) },
      what: "credential cache",
    },
    logger,
    url,
  );
}
