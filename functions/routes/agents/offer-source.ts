// The builds this process serves and the release key they are signed with, for the reads that say which
// version an agent could update to (shared/verbs/agents/update-offer.ts); nothing where none are served.
import type { Context } from "hono";
import type { OfferSource } from "../../../shared/verbs/agents/update-offer.ts";
import type { AppEnv } from "../../deps.ts";

export async function offerSource(c: Context<AppEnv>): Promise<OfferSource> {
  const source = c.get("deps").agentBinaries;
  if (!source) return {};
  const [builds, releaseKey] = await Promise.all([source.list(), source.releaseKey()]);
  return { builds, releaseKey };
}
