// GET /admin/audit-log/verify-chain: recomputes every hash and link of the chain (read-only).
import { verifyAuditChain } from "../../audit/chain.ts";
import { defineRead } from "../verb.ts";
import { AUDIT_SCOPE } from "./entry.ts";

export const verifyChain = defineRead({ scope: AUDIT_SCOPE }, async (ctx) => verifyAuditChain(ctx.db));
