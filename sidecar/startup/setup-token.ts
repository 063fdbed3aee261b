// While no administrator exists and SVC_SETUP_TOKEN is unset, the long-lived process makes a setup
// token and logs it once (docs/architecture.md, API contracts); only its hash is stored.
import { generateSetupToken } from "../../shared/identity/setup-token.ts";
import { bootstrapStatus } from "../../shared/verbs/bootstrap/status.ts";
import type { NodeRuntime } from "../../runtime/node-deps.ts";

export async function announceSetupToken({ deps, database }: NodeRuntime): Promise<void> {
  if (deps.config.SVC_SETUP_TOKEN) return;
  if ((await bootstrapStatus({ ctx: { db: database.db } })).bootstrapped) return;
  const token = await generateSetupToken(database.db, deps.random);
  deps.logger.warn("first run: create the administrator with this setup token (shown once)", { setup_token: token });
}
