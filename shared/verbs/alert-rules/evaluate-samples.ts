// Incremental evaluation of the alert rules, called by the verbs that commit samples (the agents' link
// batch, pushed samples, SNMP polls, the capacity forecast) inside their own transaction: a rule's alert
// exists if and only if the samples that fired it committed (docs/adr/0438). Each (rule, node) state is
// taken from this process's memory; a state not there is read from alert_rule_states and its window
// seeded from the stored samples once. States change in place and are forgotten if the transaction rolls
// back (rule-states.ts, docs/adr/0451, 0474); transitions are written (and alerted) in the transaction.
// A steady batch allocates nothing per (rule, node) it judges: the collector's pauses were the commit's p99.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import { freshState, type NodeState, step, type Transition } from "../../domain/alert-rules/evaluate.ts";
import type { VerbScope } from "../verb.ts";
import { type CompiledRule, ruleEngineFor } from "./compiled-rules.ts";
import { fmt, raiseRuleAlert } from "./rule-alerts.ts";

/** The values of one node at one instant, by metric name. */
export interface MetricSample {
  hardware_id: number;
  ts: Date;
  values: Record<string, number>;
}

interface NodeScope {
  id: number;
  name: string;
  site_id: number | null;
  tags: string[];
}

const inScope = (r: CompiledRule, n: NodeScope) =>
  r.scope_kind === "all" ||
  (r.scope_kind === "node" && r.scope_node_id === n.id) ||
  (r.scope_kind === "site" && r.scope_site_id === n.site_id) ||
  (r.scope_kind === "tag" && r.scope_tag != null && n.tags.includes(r.scope_tag));

const stateKey = (r: CompiledRule, hardwareId: number) => `${r.key}:${hardwareId}`;
const ids = (list: Iterable<number>) => `{${[...list].join(",")}}`;

/** The stored history a window starts from: the source's table and column, only sources that keep one. */
function historyTable(r: CompiledRule): { table: string; column: string; extra: string } | null {
  if (!r.def.column) return null;
  if (r.def.source === "agent") return { table: "agent_host_samples", column: r.def.column, extra: "" };
  if (r.def.source === "live") return { table: "hardware_live_metrics", column: r.def.column, extra: "and source <> 'hourly_agg'" };
  return null;
}

/** Stored values of `column` for these nodes in (from, before), oldest first. */
export async function storedValues(
  db: Db,
  r: CompiledRule,
  hardwareIds: readonly number[],
  from: Date,
  before: Date,
): Promise<{ hardware_id: number; ts: Date; v: number }[]> {
  const h = historyTable(r);
  if (!h || hardwareIds.length === 0) return [];
  const rows = await queryRows<{ hardware_id: number; ts: Date | string; v: number }>(
    db,
    sql`select hardware_id, ts, ${sql.raw(h.column)}::float8 as v from ${sql.raw(h.table)}
      where hardware_id = any(${ids(hardwareIds)}::int[]) and ts > ${from.toISOString()}::timestamptz and ts < ${before.toISOString()}::timestamptz
        and ${sql.raw(h.column)} is not null ${sql.raw(h.extra)}
      order by ts`,
  );
  return rows.map((x) => ({ hardware_id: x.hardware_id, ts: new Date(x.ts), v: x.v }));
}

/** The states of these pairs as committed, from the table (absent: ok), windows seeded from history. */
async function loadStates(db: Db, pairs: { rule: CompiledRule; hardware_id: number; first: Date }[]): Promise<Map<string, NodeState>> {
  const out = new Map<string, NodeState>();
  if (pairs.length === 0) return out;
  const rows = await queryRows<{
    rule_id: number;
    hardware_id: number;
    state: string;
    pending_since: Date | string | null;
    firing_since: Date | string | null;
    changed_at: Date | string;
  }>(
    db,
    sql`select rule_id, hardware_id, state, pending_since, firing_since, changed_at from alert_rule_states
      where rule_id = any(${ids(new Set(pairs.map((p) => p.rule.id)))}::int[]) and hardware_id = any(${ids(new Set(pairs.map((p) => p.hardware_id)))}::int[])`,
  );
  const stored = new Map(rows.map((r) => [`${r.rule_id}:${r.hardware_id}`, r]));
  const ms = (d: Date | string | null) => (d == null ? null : new Date(d).getTime());
  for (const p of pairs) {
    const row = stored.get(`${p.rule.id}:${p.hardware_id}`);
    const state = freshState();
    if (row && (row.state === "pending" || row.state === "firing")) {
      state.state = row.state;
      state.pending_since = ms(row.pending_since);
      state.firing_since = ms(row.firing_since);
    }
    out.set(stateKey(p.rule, p.hardware_id), state);
  }
  // Windows are seeded with one query per stored column (not per rule): a cold batch under many rules on
  // one metric reads its history once, over the widest of their windows.
  const byColumn = new Map<string, typeof pairs>();
  for (const p of pairs) {
    const h = p.rule.aggregation === "last" ? null : historyTable(p.rule);
    if (!h) continue;
    const key = `${h.table}.${h.column}`;
    const list = byColumn.get(key);
    if (list) list.push(p);
    else byColumn.set(key, [p]);
  }
  for (const list of byColumn.values()) {
    const widest = list.reduce((w, p) => (p.rule.window_secs > w.rule.window_secs ? p : w));
    const first = new Map(list.map((p) => [p.hardware_id, p.first]));
    const earliest = Math.min(...list.map((p) => p.first.getTime()));
    const latest = Math.max(...list.map((p) => p.first.getTime()));
    const values = await storedValues(
      db,
      widest.rule,
      [...first.keys()],
      new Date(earliest - widest.rule.window_secs * 1000),
      new Date(latest),
    );
    const byNode = new Map<number, { ts: number; v: number }[]>();
    for (const v of values) {
      const seen = byNode.get(v.hardware_id);
      if (seen) seen.push({ ts: v.ts.getTime(), v: v.v });
      else byNode.set(v.hardware_id, [{ ts: v.ts.getTime(), v: v.v }]);
    }
    for (const p of list) {
      // Only what came before this batch's first sample of the node, within the rule's own window: the
      // batch's own rows are stepped in after.
      const end = p.first.getTime();
      const state = out.get(stateKey(p.rule, p.hardware_id))!;
      for (const x of byNode.get(p.hardware_id) ?? [])
        if (x.ts < end && x.ts > end - p.rule.window_secs * 1000) {
          state.window_ts.push(x.ts);
          state.window_v.push(x.v);
        }
      if (state.window_ts.length > 0) state.last_ts = state.window_ts.at(-1)!;
    }
  }
  return out;
}

/**
 * The nodes' names, sites and tags. Read only when needed: a rule scoped by site or tag needs them for
 * every node; otherwise only a transition does (its alert names the node), and a steady batch has none, so
 * it pays no round trip for them (docs/adr/0474).
 */
async function nodeScopes(db: Db, hardwareIds: readonly number[]): Promise<Map<number, NodeScope>> {
  if (hardwareIds.length === 0) return new Map();
  const rows = await queryRows<NodeScope>(db, sql`select id, name, site_id, tags from hardware where id = any(${ids(hardwareIds)}::int[])`);
  return new Map(rows.map((r) => [r.id, { ...r, tags: r.tags ?? [] }]));
}

async function recordTransition(
  s: VerbScope,
  rule: CompiledRule,
  node: NodeScope,
  state: Fired["state"],
  transition: Transition,
  value: number,
  at: Date,
): Promise<void> {
  const last = Number.isFinite(value) ? value : null;
  const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());
  // A firing or a clear is written only if the stored state is not already there: two processes that
  // judged the same node at once (a push and an agent frame) alert once.
  const guard =
    transition === "firing"
      ? sql`where alert_rule_states.state <> 'firing'`
      : transition === "cleared"
        ? sql`where alert_rule_states.state = 'firing'`
        : sql``;
  const written = await queryRows<{ n: number }>(
    s.tx,
    sql`insert into alert_rule_states (rule_id, hardware_id, state, pending_since, firing_since, last_value, changed_at)
      values (${rule.id}, ${node.id}, ${state.state}, ${iso(state.pending_since)}::timestamptz, ${iso(state.firing_since)}::timestamptz, ${last}, ${at.toISOString()}::timestamptz)
      on conflict (rule_id, hardware_id) do update set state = excluded.state, pending_since = excluded.pending_since,
        firing_since = excluded.firing_since, last_value = excluded.last_value, changed_at = excluded.changed_at
      ${guard}
      returning 1 as n`,
  );
  if (transition !== "firing" && transition !== "cleared") return;
  if (written.length === 0) return;
  const firing = transition === "firing";
  const cmp = firing ? `${rule.operator} ${fmt(rule.threshold)}` : `back ${rule.operator === ">" ? "<" : ">"} ${fmt(rule.clear_threshold)}`;
  const aggregate = rule.aggregation === "last" ? "" : ` (${rule.aggregation} over ${rule.window_secs} s)`;
  await raiseRuleAlert(s, {
    rule,
    node,
    firing,
    value: last,
    at,
    title: `${rule.name} ${firing ? "firing" : "cleared"} on ${node.name}`,
    body: `${rule.metric}${aggregate} is ${fmt(value)}, ${cmp}${firing && rule.for_secs > 0 ? ` for ${rule.for_secs} s` : ""}.`,
  });
}

/** Evaluates every enabled rule on these samples (any order) in the caller's transaction. */
export async function evaluateSamples(s: VerbScope, samples: readonly MetricSample[]): Promise<{ transitions: number }> {
  if (samples.length === 0) return { transitions: 0 };
  const engine = ruleEngineFor(s.ctx.db);
  const rules = await engine.rules(s.tx, s.now.getTime());
  if (rules.length === 0) return { transitions: 0 };
  const metrics = new Set(samples.flatMap((x) => Object.keys(x.values)));
  const relevant = rules.filter((r) => metrics.has(r.metric));
  if (relevant.length === 0) return { transitions: 0 };

  // Each node's samples, oldest first.
  const byNode = new Map<number, MetricSample[]>();
  for (const x of [...samples].sort((a, b) => a.ts.getTime() - b.ts.getTime())) {
    const list = byNode.get(x.hardware_id);
    if (list) list.push(x);
    else byNode.set(x.hardware_id, [x]);
  }
  const scoped = relevant.some((r) => r.scope_kind === "site" || r.scope_kind === "tag");
  const scopes = scoped ? await nodeScopes(s.tx, [...byNode.keys()]) : null;
  // Without site or tag rules a node's scope is its id; a node that no longer exists has no scope.
  const scopeOf = (hardwareId: number): NodeScope | undefined =>
    scopes ? scopes.get(hardwareId) : { id: hardwareId, name: "", site_id: null, tags: [] };

  // States in memory are taken (held, changed in place) and judged at once, all before any await; the
  // others are read from the table, then judged the same way. Judging is synchronous: transitions are
  // written after, each with the state as it was when it happened.
  const batch = engine.states.batch(s);
  const fired: Fired[] = [];
  const judge = (rule: CompiledRule, hardwareId: number, state: NodeState) => {
    for (const sample of byNode.get(hardwareId)!) {
      const value = sample.values[rule.metric];
      if (value === undefined) continue;
      const judged = step(rule, state, sample.ts.getTime(), value);
      if (judged?.transition)
        fired.push({
          rule,
          hardware_id: hardwareId,
          state: { state: state.state, pending_since: state.pending_since, firing_since: state.firing_since },
          transition: judged.transition,
          value: judged.value,
          at: sample.ts,
        });
    }
  };
  const missing: { rule: CompiledRule; hardware_id: number; first: Date }[] = [];
  for (const [hardwareId, list] of byNode) {
    const node = scopeOf(hardwareId);
    if (!node) continue;
    for (const rule of relevant) {
      if (!inScope(rule, node)) continue;
      const state = batch.take(rule.key, hardwareId);
      if (state) judge(rule, hardwareId, state);
      else missing.push({ rule, hardware_id: hardwareId, first: list[0]!.ts });
    }
  }
  if (missing.length > 0) {
    const loaded = await loadStates(s.tx, missing);
    for (const p of missing) {
      const state = loaded.get(stateKey(p.rule, p.hardware_id))!;
      batch.adopt(p.rule.key, p.hardware_id, state);
      judge(p.rule, p.hardware_id, state);
    }
  }
  if (fired.length === 0) return { transitions: 0 };

  // A transition's alert names its node: read now if the scopes were not.
  const named = scopes ?? (await nodeScopes(s.tx, [...new Set(fired.map((f) => f.hardware_id))]));
  // In the order of the samples that caused them, as the alerts are read.
  fired.sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const f of fired) {
    const node = named.get(f.hardware_id);
    if (node) await recordTransition(s, f.rule, node, f.state, f.transition, f.value, f.at);
  }
  return { transitions: fired.length };
}

/** A transition a batch caused, with the state it left (written with it). */
interface Fired {
  rule: CompiledRule;
  hardware_id: number;
  state: Pick<NodeState, "state" | "pending_since" | "firing_since">;
  transition: Transition;
  value: number;
  at: Date;
}
