// POST /integrations/{id}/test: one GET of Uptime Kuma's status page (5 s), answered 200 as {ok, message}
// ("Connection successful" as the reference says); the native integration is always available. Writes nothing.
import { defineRead } from "../../verb.ts";
import { readOutboundPolicy } from "../outbound-policy.ts";
import { WRITE_INTEGRATIONS } from "../scopes.ts";
import { findIntegration } from "./integration-row.ts";
import { fetchStatusPage } from "./kuma-client.ts";
import { syncMessage } from "./sync-integration.ts";
import { outboundOf } from "../../verb-context.ts";

export const testIntegration = defineRead(
  { scope: WRITE_INTEGRATIONS },
  async (ctx, { id }: { id: number }): Promise<{ ok: boolean; message: string }> => {
    const row = await findIntegration(ctx.db, id);
    if (row.type === "native") return { ok: true, message: "Native monitors are always available" };
    try {
      const policy = await readOutboundPolicy(ctx.db);
      await fetchStatusPage(outboundOf(ctx), { base_url: row.base_url ?? "", slug: row.slug, apiKey: null, policy, timeoutMs: 5000 });
      return { ok: true, message: "Connection successful" };
    } catch (e) {
      return { ok: false, message: syncMessage(e) };
    }
  },
);
