// The shape of every write: `defineVerb` checks the scope first, runs the body in one transaction,
// appends the audit entries the body recorded in that same transaction, and queues NOTIFY events that
// PostgreSQL delivers only if the transaction commits. Handlers call verbs; only verbs write.
import { sql } from "drizzle-orm";
import { type AuditEntryInput, appendAudit } from "../audit/chain.ts";
import type { Db } from "../db/database.ts";
import { ApiError } from "../errors.ts";
import { actorCan } from "./actor.ts";
import type { VerbContext } from "./verb-context.ts";

export type EventChannel = "inventory" | "topology" | "agents" | "monitors" | "telemetry" | "discovery" | "audit";

export interface VerbScope {
  tx: Db;
  ctx: VerbContext;
  now: Date;
  /** Records an audit entry, written in this transaction just before commit. */
  audit(entry: AuditEntryInput): void;
  /** Queues a NOTIFY on `channel`; delivered on commit only. */
  emit(channel: EventChannel, payload: Record<string, unknown>): void;
}

/** 401 without an actor, 403 PERMISSION_DENIED when the actor lacks the scope. */
export function requireScope(ctx: VerbContext, scope: string): void {
  if (!ctx.actor) throw ApiError.unauthorized("Authentication required.");
  if (!actorCan(ctx.actor, scope))
    throw ApiError.forbidden(`This operation needs the ${scope} scope.`);
}

export function auditActor(ctx: VerbContext) {
  return {
    actor_id: ctx.actor?.userId ?? null,
    actor_email: ctx.actor?.email ?? null,
    role_at_time: ctx.actor?.role ?? null,
    ip_address: ctx.ip ?? null,
  };
}

/** Audit categories of changes that can never alter what a credential resolves to. */
const CREDENTIAL_NEUTRAL = new Set(["inventory", "telemetry", "uploads", "jobs"]);

export interface VerbOptions {
  /** The scope the actor needs; null for verbs open to anonymous callers (login, bootstrap). */
  scope: string | null;
  /** Starts a new audit chain with this verb's entries (only DELETE /logs). */
  auditGenesis?: boolean;
}

export function defineVerb<I, O>(
  options: VerbOptions,
  body: (scope: VerbScope, input: I) => Promise<O>,
): (args: { ctx: VerbContext; input: I }) => Promise<O> {
  return async ({ ctx, input }) => {
    if (options.scope) requireScope(ctx, options.scope);
    return runInTransaction(ctx, options, (scope) => body(scope, input));
  };
}

/** The transaction part of a verb, for verbs whose checks need the database first. */
export async function runInTransaction<O>(
  ctx: VerbContext,
  options: Pick<VerbOptions, "auditGenesis">,
  body: (scope: VerbScope) => Promise<O>,
): Promise<O> {
  let securityRelevant = false;
  const result = await ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    const entries: AuditEntryInput[] = [];
    const events: [EventChannel, Record<string, unknown>][] = [];
    const scope: VerbScope = {
      tx: tx as unknown as Db,
      ctx,
      now,
      audit: (e) => entries.push(e),
      emit: (channel, payload) => events.push([channel, payload]),
    };
    const result = await body(scope);
    // Under a masquerade the target is the actor; the administrator behind it goes into the (hashed) diff.
    const by = ctx.actor?.masqueradeBy;
    const recorded = by == null ? entries : entries.map((e) => ({ ...e, diff: { ...(e.diff as object | undefined), masquerade_by: by } }));
    await appendAudit(scope.tx, now, auditActor(ctx), recorded, { genesis: options.auditGenesis ?? false });
    for (const [channel, payload] of events)
      await scope.tx.execute(sql`select pg_notify(${channel}, ${JSON.stringify(payload)})`);
    securityRelevant = entries.some((e) => !CREDENTIAL_NEUTRAL.has(e.category));
    return result;
  });
  // The database announces credential changes to every process (migration 0007), but asynchronously:
  // this process forgets its cached credentials before its own caller hears that the change is done.
  if (securityRelevant) ctx.credentialCache?.flush();
  return result;
}

/**
 * Records security events that must persist even though the request fails (a failed login, a denied
 * confirmation): its own small transaction, then the caller throws.
 */
export async function auditOnly(ctx: VerbContext, entries: AuditEntryInput[]): Promise<void> {
  await runInTransaction(ctx, {}, async (scope) => {
    entries.forEach((e) => scope.audit(e));
  });
}
