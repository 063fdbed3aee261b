// Administrator views of the audit log: recent changes, one user's actions, and the chain's verify
// and repair operations.
import type { Hono } from "hono";
import { RecentChangesQuery, RepairBody, repairResult } from "../../../shared/schemas/admin-audit.ts";
import { listAuditEntries } from "../../../shared/verbs/audit/list-entries.ts";
import { repairAuditChain } from "../../../shared/verbs/audit/repair-chain.ts";
import { listUserActions } from "../../../shared/verbs/audit/user-actions.ts";
import { verifyChain } from "../../../shared/verbs/audit/verify-chain.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { AuditPageSchema, ChainVerificationSchema, Paging, UserId } from "../../../shared/schemas/logs.ts";

const RepairResult = repairResult(ChainVerificationSchema);

export function auditAdminRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/admin/recent-changes",
      tag: "admin",
      scope: listAuditEntries.scope,
      summary: "The latest audit entries that changed something (a before/after diff), newest first",
      query: RecentChangesQuery,
      response: { schema: AuditPageSchema },
    },
    async (c, { query, reply }) =>
      reply(await listAuditEntries({ ctx: verbContext(c), input: { ...query, sort: "timestamp", direction: "desc", changes_only: true } })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/admin/user-actions/:user_id",
      tag: "admin-users",
      scope: listUserActions.scope,
      summary: "What one user did, from the audit log, newest first",
      params: UserId,
      query: Paging,
      response: { schema: AuditPageSchema },
    },
    async (c, { params, query, reply }) =>
      reply(await listUserActions({ ctx: verbContext(c), input: { user_id: params.user_id!, page: query } })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/admin/audit-log/verify-chain",
      tag: "admin-audit",
      scope: verifyChain.scope,
      summary: "Recompute every hash and link of the audit chain",
      response: { schema: ChainVerificationSchema },
    },
    async (c, { reply }) => reply(await verifyChain({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/admin/audit-log/repair-chain",
      tag: "admin-audit",
      scope: repairAuditChain.scope,
      summary: "Relink and rehash the chain from its first failure on, recording who repaired it and why",
      description:
        'Body {authorization: "REPAIR_AUDIT_CHAIN", reason (12-500 characters)}. The repair is itself audited (audit.chain_repaired, with the range).',
      body: RepairBody,
      response: { schema: RepairResult },
    },
    async (c, { body, reply }) => {
      const ctx = verbContext(c);
      const repaired = await repairAuditChain({ ctx, input: { reason: body.reason } });
      // Verified after the repair commits, so the verification covers the repair's own entry too.
      return reply({ ...repaired, verification: await verifyChain({ ctx }) });
    },
  );
}
