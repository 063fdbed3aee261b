// On start, after the migrations: secrets an older release stored in clear are sealed with the vault
// (shared/verbs/vault/encrypt-clear-secrets.ts). Logged as counts only. A process whose key is not the
// installation's (or a rotation pending) leaves them as they are and says so: the start goes on, and the
// values are sealed by the first start with the right key.
import { ApiError } from "../../shared/errors.ts";
import { encryptClearSecrets } from "../../shared/verbs/vault/encrypt-clear-secrets.ts";
import { systemContext } from "../../shared/verbs/verb-context.ts";
import type { NodeRuntime } from "../../runtime/node-deps.ts";

export async function encryptStoredSecrets({ deps, database }: Pick<NodeRuntime, "deps" | "database">): Promise<number> {
  const ctx = systemContext({ db: database.db, clock: deps.clock, random: deps.random });
  try {
    const { encrypted, total } = await encryptClearSecrets({ ctx, input: { vault: deps.vault } });
    if (total > 0) deps.logger.info("encrypted secrets stored in clear with the vault key", { total, ...encrypted });
    return total;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    deps.logger.warn("secrets stored in clear were left as they are: the vault cannot write now", { reason: e.message });
    return 0;
  }
}
