// The agent a verb works on: 404 naming it when it does not exist. `forUpdate` serialises the writers of
// one agent (a decision racing a revoke, two probe requests counting its capacity).
import { eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { agents } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { RowKind } from "../resources/update-row.ts";

export type AgentRow = typeof agents.$inferSelect;

export async function findAgent(db: Db, id: number, opts: { forUpdate?: boolean } = {}): Promise<AgentRow | undefined> {
  const query = db.select().from(agents).where(eq(agents.id, id));
  const [row] = opts.forUpdate ? await query.for("update") : await query;
  return row;
}

export async function requireAgent(db: Db, id: number, opts: { forUpdate?: boolean } = {}): Promise<AgentRow> {
  const row = await findAgent(db, id, opts);
  if (!row) throw ApiError.notFound("Agent", id);
  return row;
}

/** Agents for the engine's row steps (resources/update-row.ts): audited as agents.<what>, category agents; unversioned; no engine events. */
export const agentKind: RowKind<typeof agents> = {
  label: "Agent",
  entityType: "agent",
  auditPrefix: "agents",
  auditCategory: "agents",
  table: agents,
  columns: { id: agents.id },
  channels: [],
};

/** 409 unless the agent is in one of `allowed` states; `doing` completes "only a pending agent can ...". */
export function requireStatus(row: AgentRow, allowed: readonly string[], doing: string): void {
  if (allowed.includes(row.status)) return;
  const states = allowed.join(" or ");
  const article = /^[aeiou]/.test(states) ? "an" : "a";
  throw ApiError.conflict(`Agent ${row.id} is ${row.status}: only ${article} ${states} agent can ${doing}.`, { status: row.status });
}
