// The one shape of a verb. A write is `defineVerb({scope, prepare?}, body)`: the scope is checked
// first, `prepare` does what must happen outside the transaction (reads that refuse early, slow password
// hashing), then the body runs in one transaction, the audit entries it recorded are appended in that
// same transaction, and its NOTIFY events are delivered by PostgreSQL only if it commits. A read is
// `defineRead({scope}, body)`: the same scope check, no transaction. Either way the verb carries its
// scope, so a route reads it from the verb (`scope: createUser.scope`) instead of repeating the string.
// Handlers call verbs; only verbs write; nothing outside this file opens a transaction.
import { sql } from "drizzle-orm";
import { type AuditEntryInput, appendAudit } from "../audit/chain.ts";
import type { Db } from "../db/database.ts";
import { ApiError } from "../errors.ts";
import { actorCan } from "./actor.ts";
import type { VerbContext } from "./verb-context.ts";

export type EventChannel =
  | "inventory"
  | "topology"
  | "agents"
  | "monitors"
  | "telemetry"
  | "discovery"
  | "audit"
  | "agent_control"
  | "monitor_control"
  | "discovery_control"
  | "certificates"
  | "status_pages"
  | "notifications";

export interface VerbScope {
  tx: Db;
  ctx: VerbContext;
  now: Date;
  /** Records an audit entry, written in this transaction just before commit. */
  audit(entry: AuditEntryInput): void;
  /** Queues a NOTIFY on `channel`; delivered on commit only. */
  emit(channel: EventChannel, payload: Record<string, unknown>): void;
  /**
   * Ends the verb with `error` after the transaction commits: what the body recorded (a failed sign-in's
   * counter, the audit entry of a denied action) is kept, and the caller still gets the refusal. Usually
   * an ApiError; any other error (one a savepoint contained) is thrown as it is.
   */
  refuse(error: Error): Refusal;
  /** Runs `body` in a savepoint: when it throws, its writes are undone and this transaction goes on. */
  savepoint<T>(body: (tx: Db) => Promise<T>): Promise<T>;
  /**
   * Runs `effect` once the transaction has committed (never when it rolls back): for what this process
   * keeps in memory about committed rows (the alert rules' window states), so memory never holds what
   * the database does not.
   */
  afterCommit(effect: () => void): void;
  /**
   * Runs `effect` in this transaction once the body has finished, before the audit entries are appended:
   * for what a verb collects across its writes and records at once (the inventory changes that event
   * rules send: shared/verbs/event-rules/record-change.ts).
   */
  beforeCommit(effect: () => Promise<void>): void;
  /**
   * The scope of the verb whose transaction this one runs in (a bulk operation calling a resource's verb
   * per record), if any: what this verb collects can be handed to it once this savepoint is released.
   */
  outer?: VerbScope | undefined;
  /**
   * Runs `effect` if the transaction rolls back (never when it commits), latest first: for what this
   * process changed in memory in place during the transaction and must put back (docs/adr/0451).
   */
  onRollback(effect: () => void): void;
}

/** What `s.refuse()` returns for the body to return; the verb throws its error after the commit. */
export class Refusal {
  readonly error: Error;
  constructor(error: Error) {
    this.error = error;
  }
}

/**
 * Who may call a verb:
 * - a scope such as `"write:hardware"`: the actor must hold it (the system actor holds every scope);
 * - `"public"`: anyone, signed in or not (sign-in, first run): the verb makes its own checks;
 * - a function: a rule the scope vocabulary cannot say (the caller's own account, a session only):
 *   it throws the 401/403 itself.
 */
export type VerbAccess<I> = string | "public" | ((ctx: VerbContext, input: I) => void);

export interface VerbOptions<I, P> {
  scope: VerbAccess<I>;
  /** Work before the transaction: checks that refuse early, slow work (hashing). Its result goes to the body. */
  prepare?: (ctx: VerbContext, input: I) => Promise<P>;
  /** Starts a new audit chain with this verb's entries (only DELETE /logs). */
  auditGenesis?: boolean;
}

/** What a verb is called with; `input` may be left out when the verb takes none. */
export type VerbArgs<I> = { ctx: VerbContext } & (undefined extends I ? { input?: I } : { input: I });

export interface Verb<I, O> {
  (args: VerbArgs<I>): Promise<O>;
  /** The scope a route documents and checks before validation; undefined when access is not one scope. */
  readonly scope: string | undefined;
}

/** 401 without an actor, 403 PERMISSION_DENIED when the actor lacks the scope. */
export function requireScope(ctx: VerbContext, scope: string): void {
  if (!ctx.actor) throw ApiError.unauthorized("Authentication required.");
  if (!actorCan(ctx.actor, scope)) throw ApiError.forbidden(`This operation needs the ${scope} scope.`);
}

function checkAccess<I>(access: VerbAccess<I>, ctx: VerbContext, input: I): void {
  if (typeof access === "function") access(ctx, input);
  else if (access !== "public") requireScope(ctx, access);
}

const scopeOf = (access: VerbAccess<never>): string | undefined => (typeof access === "string" && access !== "public" ? access : undefined);

function asVerb<I, O>(access: VerbAccess<I>, run: (ctx: VerbContext, input: I) => Promise<O>): Verb<I, O> {
  const verb = (args: VerbArgs<I>) => run(args.ctx, (args as { input: I }).input);
  return Object.assign(verb, { scope: scopeOf(access as VerbAccess<never>) });
}

/** A write: access first, then `prepare`, then the body in one transaction with its audit and events. */
export function defineVerb<I, O, P = undefined>(
  options: VerbOptions<I, P>,
  body: (s: VerbScope, input: I, prepared: P) => Promise<O | Refusal>,
): Verb<I, O> {
  return asVerb(options.scope, async (ctx, input) => {
    checkAccess(options.scope, ctx, input);
    const prepared = (options.prepare ? await options.prepare(ctx, input) : undefined) as P;
    const result = await inTransaction(ctx, options.auditGenesis ?? false, (s) => body(s, input, prepared));
    if (result instanceof Refusal) throw result.error;
    return result;
  });
}

/** A read: access first, then the body on the request's database handle, no transaction. */
export function defineRead<I, O>(options: { scope: VerbAccess<I> }, body: (ctx: VerbContext, input: I) => Promise<O>): Verb<I, O> {
  return asVerb(options.scope, async (ctx, input) => {
    checkAccess(options.scope, ctx, input);
    return body(ctx, input);
  });
}

/**
 * A read that must see one consistent state across many statements (the streamed export): access
 * first, then the body in a read-only repeatable-read transaction, so every page it reads belongs to
 * the same snapshot while writers go on.
 */
export function defineSnapshotRead<I, O>(options: { scope: VerbAccess<I> }, body: (ctx: VerbContext, input: I) => Promise<O>): Verb<I, O> {
  return asVerb(options.scope, async (ctx, input) => {
    checkAccess(options.scope, ctx, input);
    return ctx.db.transaction((tx) => body({ ...ctx, db: tx as unknown as Db }, input), {
      isolationLevel: "repeatable read",
      accessMode: "read only",
    });
  });
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
const CREDENTIAL_NEUTRAL = new Set(["inventory", "telemetry", "uploads", "jobs", "monitors", "privacy", "certificates"]);

/**
 * A savepoint on a transaction a verb already holds, also a nested one (the import's dry run is a
 * rolled-back savepoint whose chunks each take their own), so that only this file opens transactions.
 */
export function savepointOn<T>(tx: Db, body: (tx: Db) => Promise<T>): Promise<T> {
  return tx.transaction(body as never) as Promise<T>;
}

/** The scope of each open verb transaction, so that a verb nested in it (ctx.db is its tx) finds it. */
const scopeOfTx = new WeakMap<object, VerbScope>();

async function inTransaction<O>(ctx: VerbContext, genesis: boolean, body: (scope: VerbScope) => Promise<O>): Promise<O> {
  let securityRelevant = false;
  const committed: (() => void)[] = [];
  const undo: (() => void)[] = [];
  const run = ctx.db.transaction(async (tx) => {
    const finishing: (() => Promise<void>)[] = [];
    const now = ctx.clock.now();
    const entries: AuditEntryInput[] = [];
    const events: [EventChannel, Record<string, unknown>][] = [];
    const scope: VerbScope = {
      // drizzle types a transaction apart from its database; everything a verb does works on both.
      tx: tx as unknown as Db,
      ctx,
      now,
      audit: (e) => entries.push(e),
      emit: (channel, payload) => events.push([channel, payload]),
      refuse: (error) => new Refusal(error),
      savepoint: (body) => savepointOn(tx as unknown as Db, body),
      afterCommit: (effect) => committed.push(effect),
      onRollback: (effect) => undo.push(effect),
      beforeCommit: (effect) => finishing.push(effect),
      outer: scopeOfTx.get(ctx.db),
    };
    scopeOfTx.set(tx, scope);
    const result = await body(scope);
    for (const effect of finishing) await effect();
    // Under a masquerade the target is the actor; the administrator behind it goes into the (hashed) diff.
    const by = ctx.actor?.masqueradeBy;
    const recorded = by == null ? entries : entries.map((e) => ({ ...e, diff: { ...(e.diff as object | undefined), masquerade_by: by } }));
    await appendAudit(scope.tx, now, auditActor(ctx), recorded, { genesis });
    // All of them in one statement, in order: a batch of results announces itself in one round trip.
    if (events.length)
      await scope.tx.execute(
        sql`select pg_notify(e->>0, e->>1) from jsonb_array_elements(${JSON.stringify(events.map(([c, p]) => [c, JSON.stringify(p)]))}::jsonb) with ordinality as t(e, n) order by n`,
      );
    securityRelevant = entries.some((e) => !CREDENTIAL_NEUTRAL.has(e.category));
    return result;
  });
  // Memory changed in place by a body that rolled back is put back before its caller hears of the failure.
  const result = await run.catch((e: unknown) => {
    for (const effect of undo.reverse()) effect();
    throw e;
  });
  // The database announces credential changes to every process (migration 0007), but asynchronously:
  // this process forgets its cached credentials before its own caller hears that the change is done.
  if (securityRelevant) ctx.credentialCache?.flush();
  for (const effect of committed) effect();
  return result;
}

/**
 * Records security events that must persist although the request fails (a failed sign-in, a denied
 * confirmation) when no verb body runs to `refuse` with them: a verb of its own, open to any caller.
 */
export const recordRefusal = defineVerb<AuditEntryInput[], void>({ scope: "public" }, async (s, entries) => {
  for (const e of entries) s.audit(e);
});
