// The inventory changes a verb makes, sent by the event rules (docs/adr/0488-inventory-event-rules.md).
// The resource engine records each committed write here (resources/update-row.ts, resource-verbs.ts);
// once the verb's body is done, still in its transaction, the changes are matched against the enabled
// rules in one read and a delivery per change and webhook sink is inserted, a chunk per statement: a
// change that rolls back sends nothing, one that commits is never lost, and a verb of many writes costs
// a read and a statement per EVENT_CHUNK deliveries, not a round trip per object.
import { and, eq, inArray, sql } from "drizzle-orm";
import { canonicalJson } from "../../audit/canonical.ts";
import type { Db } from "../../db/database.ts";
import { type EventRuleCondition, eventRules, notificationDeliveries, notificationSinks } from "../../db/schema/index.ts";
import { NOTIFICATIONS_CHANNEL } from "../notifications/enqueue-alert.ts";
import type { VerbScope } from "../verb.ts";
import type { EventAction } from "../../domain/event-rules.ts";
import { EVENT_OF_WRITE, isEventKind } from "./kinds.ts";

/** Attempts of an event delivery before its dead letter (the sinks' default budget). */
export const EVENT_MAX_ATTEMPTS = 5;
/** Deliveries per insert statement (a chunk's parameters stay far below PostgreSQL's 65,535). */
export const EVENT_CHUNK = 1000;

type Row = Record<string, unknown>;
type Present = (db: Db, rows: never[]) => Promise<unknown[]>;

interface Change {
  kind: string;
  event: EventAction;
  id: unknown;
  before: Row | undefined;
  after: Row | undefined;
  present: Present;
}

const pending = new WeakMap<VerbScope, Change[]>();

/**
 * Records one write of the engine (`create`, `update`, `delete`) for the event rules, with the row before
 * and after (as stored; presented as the API answers when a rule wants it). Kinds no rule may name are
 * not recorded.
 */
export function recordChange(
  s: VerbScope,
  kind: { entityType: string; present?: Present | undefined },
  write: keyof typeof EVENT_OF_WRITE,
  id: unknown,
  before: unknown,
  after: unknown,
): void {
  if (!kind.present || !isEventKind(kind.entityType)) return;
  // A verb nested in another's transaction (a bulk update's per record) hands its changes up once its
  // savepoint is released: the outermost verb sends them all with one read of the rules.
  const outer = s.outer;
  if (outer) return s.afterCommit(() => recordChange(outer, kind, write, id, before, after));
  let changes = pending.get(s);
  if (!changes) {
    const list: Change[] = [];
    changes = list;
    pending.set(s, list);
    s.beforeCommit(() => sendChanges(s, list));
  }
  changes.push({
    kind: kind.entityType,
    event: EVENT_OF_WRITE[write],
    id,
    before: before as Row | undefined,
    after: after as Row | undefined,
    present: kind.present,
  });
}

type Rule = typeof eventRules.$inferSelect;

/** Whether a presented object satisfies the rule's narrowing (tag, site, field condition). */
export function objectMatches(rule: Pick<Rule, "tag" | "site_id" | "condition">, o: Row | null): boolean {
  if (!o) return false;
  if (rule.tag != null && !(Array.isArray(o.tags) && o.tags.includes(rule.tag))) return false;
  if (rule.site_id != null && o.site_id !== rule.site_id) return false;
  return rule.condition ? conditionHolds(rule.condition, o[rule.condition.field]) : true;
}

function conditionHolds(c: EventRuleCondition, value: unknown): boolean {
  const same = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);
  switch (c.op) {
    case "eq":
      return same(value, c.value);
    case "neq":
      return !same(value, c.value);
    case "in":
      return Array.isArray(c.value) && c.value.some((v) => same(value, v));
    case "contains":
      if (Array.isArray(value)) return value.some((v) => same(v, c.value));
      return typeof value === "string" && typeof c.value === "string" && value.includes(c.value);
  }
}

function actorOf(s: VerbScope): Row {
  const a = s.ctx.actor;
  if (!a) return { type: "anonymous", id: null };
  return { type: a.kind, id: a.userId, ...(a.email ? { email: a.email } : {}), ...(a.tokenId != null ? { token_id: a.tokenId } : {}) };
}

async function sendChanges(s: VerbScope, changes: Change[]): Promise<void> {
  pending.delete(s);
  const kinds = [...new Set(changes.map((c) => c.kind))];
  const rules = await s.tx
    .select()
    .from(eventRules)
    .where(and(eq(eventRules.enabled, true), sql`${eventRules.kinds} && ${`{${kinds.join(",")}}`}::text[]`));
  const wanted = changes.filter((c) => rules.some((r) => r.kinds.includes(c.kind) && r.actions.includes(c.event)));
  if (wanted.length === 0) return;
  // Only the sinks that are webhooks still: a sink deleted or changed since the rule was saved is skipped.
  const sinkIds = [...new Set(rules.flatMap((r) => r.sink_ids))];
  const sinks = new Set(
    (
      await s.tx
        .select({ id: notificationSinks.id })
        .from(notificationSinks)
        .where(and(inArray(notificationSinks.id, sinkIds), eq(notificationSinks.provider_type, "webhook")))
    ).map((k) => k.id),
  );
  // Presented as the API answers them (secrets never: the read shapes hold none), one call per kind and side.
  const shown = new Map<Change, { prechange: Row | null; postchange: Row | null }>();
  for (const kind of new Set(wanted.map((c) => c.kind))) {
    const ofKind = wanted.filter((c) => c.kind === kind);
    const present = ofKind[0]!.present;
    const side = async (rows: (Row | undefined)[]) => {
      const given = rows.filter((r): r is Row => r !== undefined);
      const out = given.length === 0 ? [] : ((await present(s.tx, given as never[])) as Row[]);
      let i = 0;
      return rows.map((r) => (r === undefined ? null : out[i++]!));
    };
    const [befores, afters] = await Promise.all([side(ofKind.map((c) => c.before)), side(ofKind.map((c) => c.after))]);
    for (const [i, c] of ofKind.entries()) shown.set(c, { prechange: befores[i]!, postchange: afters[i]! });
  }
  const actor = actorOf(s);
  const timestamp = s.now.toISOString();
  const rows: (typeof notificationDeliveries.$inferInsert)[] = [];
  for (const c of wanted) {
    const snapshots = shown.get(c)!;
    for (const rule of rules) {
      if (!rule.kinds.includes(c.kind) || !rule.actions.includes(c.event)) continue;
      // Either side matching sends it: an object that leaves a tag or a site is news to whoever mirrors them.
      if (!objectMatches(rule, snapshots.prechange) && !objectMatches(rule, snapshots.postchange)) continue;
      const event = {
        event: c.event,
        kind: c.kind,
        id: c.id,
        timestamp,
        actor,
        ...(s.ctx.requestId ? { request_id: s.ctx.requestId } : {}),
        rule: { id: rule.id, name: rule.name },
        data: snapshots.postchange ?? snapshots.prechange,
        snapshots,
      };
      for (const sinkId of rule.sink_ids)
        if (sinks.has(sinkId))
          rows.push({
            sink_id: sinkId,
            event,
            event_rule_id: rule.id,
            max_attempts: EVENT_MAX_ATTEMPTS,
            next_attempt_at: s.now,
          });
    }
  }
  if (rows.length === 0) return;
  for (let i = 0; i < rows.length; i += EVENT_CHUNK) await s.tx.insert(notificationDeliveries).values(rows.slice(i, i + EVENT_CHUNK));
  // The worker wakes on commit (NOTIFY is delivered only then).
  await s.tx.execute(sql`select pg_notify(${NOTIFICATIONS_CHANNEL}, ${JSON.stringify({ event_deliveries: rows.length })})`);
}

/** The kinds some enabled rule names: a bulk writer (the import) reads the rows before and after only for these. */
export async function kindsWithRules(db: Db): Promise<Set<string>> {
  const rows = await db.select({ kinds: eventRules.kinds }).from(eventRules).where(eq(eventRules.enabled, true));
  return new Set(rows.flatMap((r) => r.kinds));
}
