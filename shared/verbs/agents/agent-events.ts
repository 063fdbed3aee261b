// GET /agents/{id}/events: what happened to an agent, newest first, in the list envelope (its sort is
// always created_at descending; `event_type` narrows it).
import { and, desc, eq, sql } from "drizzle-orm";
import { agentEvents } from "../../db/schema/index.ts";
import type { ListPage } from "../resources/list.ts";
import { iso } from "../resources/present.ts";
import { defineRead } from "../verb.ts";
import { requireAgent } from "./agent-row.ts";
import { READ_AGENTS } from "./scopes.ts";

export interface AgentEventShape {
  id: number;
  event_type: string;
  actor_user_id: number | null;
  detail: Record<string, unknown> | null;
  created_at: string;
}

export interface AgentEventsInput {
  id: number;
  limit: number;
  offset: number;
  event_type?: string | undefined;
}

export const listAgentEvents = defineRead<AgentEventsInput, ListPage<AgentEventShape>>({ scope: READ_AGENTS }, async (ctx, input) => {
  await requireAgent(ctx.db, input.id);
  const where = and(eq(agentEvents.agent_id, input.id), input.event_type ? eq(agentEvents.event_type, input.event_type) : undefined);
  const [rows, [count]] = await Promise.all([
    ctx.db
      .select()
      .from(agentEvents)
      .where(where)
      .orderBy(desc(agentEvents.created_at), desc(agentEvents.id))
      .limit(input.limit)
      .offset(input.offset),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(agentEvents).where(where),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.id,
      event_type: r.event_type,
      actor_user_id: r.actor_user_id,
      detail: r.detail ?? null,
      created_at: iso(r.created_at)!,
    })),
    total: count?.n ?? 0,
    limit: input.limit,
    offset: input.offset,
    sort: "created_at",
    direction: "desc",
  };
});
