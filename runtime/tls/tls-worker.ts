// Keeps this process's HTTPS certificate in step with the database: LISTEN on `certificates` (activate
// and renew of the active certificate announce themselves there, on commit, from any process) and,
// when the active certificate is not the one presented, reload it. A process that loses the LISTEN
// catches up on the next notification; the activating process has already reloaded itself.
import type { Logger } from "../../shared/logger.ts";
import { activeCertificate } from "../../shared/verbs/certificates/read-certificates.ts";
import { CERTIFICATES_CHANNEL } from "../../shared/verbs/certificates/tls-reloader.ts";
import { databaseListener } from "../listen.ts";
import type { NodeRuntime } from "../node-deps.ts";
import type { Worker } from "../worker.ts";
import { leafFingerprint, type NodeTls } from "./node-tls.ts";

export function tlsWorker(runtime: Pick<NodeRuntime, "deps" | "database">, tls: NodeTls): Worker {
  const { deps } = runtime;
  const listen = databaseListener(runtime.database);
  let unlisten: (() => Promise<void>) | undefined;
  let chain = Promise.resolve();

  const sync = (logger: Logger) => async () => {
    try {
      const active = await activeCertificate(runtime.database.db, deps.vault);
      if (!active || leafFingerprint(active.cert_pem) === tls.fingerprint) return;
      await tls.reload(active.cert_pem, active.key_pem);
    } catch (e) {
      logger.error("TLS: reading the active certificate failed", { error: (e as Error).message });
    }
  };

  return {
    name: "tls",
    start: async () => {
      if (!listen) return;
      // Notifications are handled one at a time, in order.
      unlisten = await listen(CERTIFICATES_CHANNEL, () => {
        chain = chain.then(sync(deps.logger));
      });
    },
    stop: async () => {
      await unlisten?.();
      await chain;
    },
  };
}
