// GET /admin/audit-log/verify-chain: recomputes every hash and link of the chain (read-only).
import { type ChainVerification, verifyAuditChain } from "../../audit/chain.ts";
import type { VerbContext } from "../verb-context.ts";
import { requireScope } from "../verb.ts";
import { AUDIT_SCOPE } from "./entry.ts";

export async function verifyChain({ ctx }: { ctx: VerbContext }): Promise<ChainVerification> {
  requireScope(ctx, AUDIT_SCOPE);
  return verifyAuditChain(ctx.db);
}
