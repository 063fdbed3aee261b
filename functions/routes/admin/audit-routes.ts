// Administrator views of the audit log: recent changes, one user's actions, and the chain's verify
// and repair operations.
import type { Hono } from "hono";
import * as v from "valibot";
import { Limit, Offset } from "../../../shared/schemas/list-query.ts";
import { listAuditEntries } from "../../../shared/verbs/audit/list-entries.ts";
import { repairAuditChain } from "../../../shared/verbs/audit/repair-chain.ts";
import { listUserActions } from "../../../shared/verbs/audit/user-actions.ts";
import { verifyChain } from "../../../shared/verbs/audit/verify-chain.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { AuditPageSchema, ChainVerificationSchema, Paging, UserId } from "../../../shared/schemas/logs.ts";

const RepairBody = v.object({
  authorization: v.literal("REPAIR_AUDIT_CHAIN", 'authorization must be exactly "REPAIR_AUDIT_CHAIN".'),
  reason: v.pipe(v.string(), v.trim(), v.minLength(12, "Give a reason of at least 12 characters."), v.maxLength(500)),
});

export function auditAdminRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get", path: "/api/v1/admin/recent-changes", tag: "admin", scope: listAuditEntries.scope,
      summary: "The latest audit entries that changed something (a before/after diff), newest first",
      query: v.object({ limit: Limit, offset: Offset }), response: { schema: AuditPageSchema },
    },
    async (c, { query }) =>
      c.json(await listAuditEntries({ ctx: verbContext(c), input: { ...query, sort: "timestamp", direction: "desc", changes_only: true } })),
  );

  route(
    app,
    {
      method: "get", path: "/api/v1/admin/user-actions/:user_id", tag: "admin-users", scope: listUserActions.scope,
      summary: "What one user did, from the audit log, newest first",
      params: UserId, query: Paging, response: { schema: AuditPageSchema },
    },
    async (c, { params, query }) => c.json(await listUserActions({ ctx: verbContext(c), input: { user_id: params.user_id!, page: query } })),
  );

  route(
    app,
    {
      method: "get", path: "/api/v1/admin/audit-log/verify-chain", tag: "admin-audit", scope: verifyChain.scope,
      summary: "Recompute every hash and link of the audit chain",
      response: { schema: ChainVerificationSchema },
    },
    async (c) => c.json(await verifyChain({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/admin/audit-log/repair-chain", tag: "admin-audit", scope: repairAuditChain.scope,
      summary: "Relink and rehash the chain from its first failure on, recording who repaired it and why",
      description: 'Body {authorization: "REPAIR_AUDIT_CHAIN", reason (12-500 characters)}. The repair is itself audited (audit.chain_repaired, with the range).',
      body: RepairBody,
      response: { schema: v.object({ repaired_count: v.number(), first_repaired_id: v.nullable(v.number()), verification: ChainVerificationSchema }) },
    },
    async (c, { body }) => {
      const ctx = verbContext(c);
      const repaired = await repairAuditChain({ ctx, input: { reason: body.reason } });
      // Verified after the repair commits, so the verification covers the repair's own entry too.
      return c.json({ ...repaired, verification: await verifyChain({ ctx }) });
    },
  );
}
