// /notifications/escalation-policies: who is paged, and when, while an incident stays open and
// unacknowledged (docs/adr/0448-escalation-policies.md). The escalation job reads a policy when a step
// comes due, so an edit applies to incidents already escalating; a policy a route names cannot be deleted.
import { eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { notificationEscalationPolicies, notificationRoutes, notificationSinks } from "../../db/schema/index.ts";
import { ApiError, type ValidationIssue } from "../../errors.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import type { EscalationPolicyCreate, EscalationPolicyPatch, EscalationPolicyShape } from "../../schemas/notification-escalation.ts";
import { type ListPage, listPage } from "../resources/list.ts";
import { defineRead, defineVerb, type VerbScope } from "../verb.ts";
import { ADMIN_NOTIFICATIONS } from "./scopes.ts";

type PolicyRow = typeof notificationEscalationPolicies.$inferSelect;

async function routesNaming(db: Db, ids: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await db
    .select({ id: notificationRoutes.id, policy: notificationRoutes.escalation_policy_id })
    .from(notificationRoutes)
    .where(inArray(notificationRoutes.escalation_policy_id, ids))
    .orderBy(notificationRoutes.id);
  for (const r of rows) out.get(r.policy!)?.push(r.id);
  return out;
}

const present = (r: PolicyRow, route_ids: number[]): EscalationPolicyShape => ({
  id: r.id,
  name: r.name,
  steps: r.steps,
  repeat: r.repeat,
  renotify_every_minutes: r.renotify_every_minutes,
  route_ids,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

async function presentOne(db: Db, r: PolicyRow): Promise<EscalationPolicyShape> {
  return present(r, (await routesNaming(db, [r.id])).get(r.id) ?? []);
}

/** Every step's sinks must exist: one 422 naming `steps[i].sink_ids` for each step with an unknown one. */
async function checkSinks(db: Db, steps: EscalationPolicyCreate["steps"]): Promise<void> {
  const wanted = [...new Set(steps.flatMap((s) => s.sink_ids))];
  const known = new Set(
    (await db.select({ id: notificationSinks.id }).from(notificationSinks).where(inArray(notificationSinks.id, wanted))).map((r) => r.id),
  );
  const issues: ValidationIssue[] = [];
  steps.forEach((step, i) => {
    const unknown = step.sink_ids.filter((id) => !known.has(id));
    if (unknown.length > 0)
      issues.push({ loc: ["body", "steps", i, "sink_ids"], msg: `No such sink: ${unknown.join(", ")}.`, type: "value_error" });
  });
  if (issues.length > 0) throw ApiError.validation(issues);
}

const normalizeSteps = (steps: EscalationPolicyCreate["steps"]) =>
  steps.map((s) => ({ after_minutes: s.after_minutes, sink_ids: [...new Set(s.sink_ids)] }));

async function requirePolicy(db: Db, id: number, lock = false): Promise<PolicyRow> {
  const q = db.select().from(notificationEscalationPolicies).where(eq(notificationEscalationPolicies.id, id));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw ApiError.notFound("Escalation policy", id);
  return row;
}

function checkVersion(row: PolicyRow, ifMatch: number | undefined): void {
  if (ifMatch !== undefined && row.updated_at.getTime() !== ifMatch)
    throw new ApiError("PRECONDITION_FAILED", `Escalation policy ${row.id} changed since it was read: read it again.`);
}

function audit(s: VerbScope, id: number, action: string, diff: Record<string, unknown>): void {
  s.audit({ action: `escalation_policy.${action}`, category: "notifications", entity_type: "escalation_policy", entity_id: id, diff });
}

export const createEscalationPolicy = defineVerb(
  { scope: ADMIN_NOTIFICATIONS },
  async (s, body: EscalationPolicyCreate): Promise<EscalationPolicyShape> => {
    await checkSinks(s.tx, body.steps);
    const [row] = await s.tx
      .insert(notificationEscalationPolicies)
      .values({ ...body, steps: normalizeSteps(body.steps), created_at: s.now, updated_at: s.now })
      .returning();
    const out = present(row!, []);
    audit(s, row!.id, "create", { after: out });
    return out;
  },
);

export const patchEscalationPolicy = defineVerb(
  { scope: ADMIN_NOTIFICATIONS },
  async (s, { id, body, ifMatch }: { id: number; body: EscalationPolicyPatch; ifMatch?: number | undefined }) => {
    const before = await requirePolicy(s.tx, id, true);
    checkVersion(before, ifMatch);
    if (body.steps) await checkSinks(s.tx, body.steps);
    // The version must move on even within one millisecond: it is the ETag.
    const updated_at = new Date(Math.max(s.now.getTime(), before.updated_at.getTime() + 1));
    const [row] = await s.tx
      .update(notificationEscalationPolicies)
      .set({ ...body, ...(body.steps ? { steps: normalizeSteps(body.steps) } : {}), updated_at })
      .where(eq(notificationEscalationPolicies.id, id))
      .returning();
    const out = await presentOne(s.tx, row!);
    audit(s, id, "update", { before: await presentOne(s.tx, before), after: out });
    return out;
  },
);

export const deleteEscalationPolicy = defineVerb(
  { scope: ADMIN_NOTIFICATIONS },
  async (s, { id, ifMatch }: { id: number; ifMatch?: number | undefined }): Promise<void> => {
    const before = await requirePolicy(s.tx, id, true);
    checkVersion(before, ifMatch);
    const routes = (await routesNaming(s.tx, [id])).get(id) ?? [];
    // Paging that silently stops is the failure an on-call setup must not have: unlink the routes first.
    if (routes.length > 0)
      throw ApiError.conflict(`Escalation policy ${id} is named by route${routes.length > 1 ? "s" : ""} ${routes.join(", ")}.`, {
        route_ids: routes,
      });
    await s.tx.delete(notificationEscalationPolicies).where(eq(notificationEscalationPolicies.id, id));
    audit(s, id, "delete", { before: present(before, []) });
  },
);

export const getEscalationPolicy = defineRead({ scope: ADMIN_NOTIFICATIONS }, async (ctx, { id }: { id: number }) =>
  presentOne(ctx.db, await requirePolicy(ctx.db, id)),
);

const SPEC = {
  table: notificationEscalationPolicies,
  id: notificationEscalationPolicies.id,
  sortable: {
    name: notificationEscalationPolicies.name,
    id: notificationEscalationPolicies.id,
    created_at: notificationEscalationPolicies.created_at,
  },
  search: [notificationEscalationPolicies.name],
};

export const listEscalationPolicies = defineRead<ListParams, ListPage<EscalationPolicyShape>>(
  { scope: ADMIN_NOTIFICATIONS },
  (ctx, query) =>
    listPage<PolicyRow, EscalationPolicyShape>(ctx.db, SPEC, query, [], async (rows) => {
      const routes = await routesNaming(
        ctx.db,
        rows.map((r) => r.id),
      );
      return rows.map((r) => present(r, routes.get(r.id) ?? []));
    }),
);
