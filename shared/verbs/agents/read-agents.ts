// GET /agents, /agents/pending and /agents/{id}: the list envelope of docs/architecture.md, API contracts (sort `name` is the
// name, or the hostname for an agent not named yet), filters status and hardware_id, `q` over name and
// hostname; one agent as AgentRead.
import { eq, sql } from "drizzle-orm";
import { agents } from "../../db/schema/index.ts";
import { effectiveGrants, type Grants } from "../../domain/agents/capabilities.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import { type ListPage, type ListSpec, listPage } from "../resources/list.ts";
import { defineRead } from "../verb.ts";
import type { VerbContext } from "../verb-context.ts";
import { type AgentRow, requireAgent } from "./agent-row.ts";
import { type AgentReadShape, type AgentSummaryShape, presentAgent, presentSummaries } from "./present.ts";
import { READ_AGENTS } from "./scopes.ts";

const SPEC: ListSpec = {
  table: agents,
  id: agents.id,
  sortable: {
    name: sql`lower(coalesce(${agents.name}, ${agents.hostname}))`,
    hostname: sql`lower(${agents.hostname})`,
    status: agents.status,
    enrolled_at: agents.enrolled_at,
    last_seen_at: agents.last_seen_at,
    id: agents.id,
  },
  search: [agents.name, agents.hostname],
};

export interface AgentListInput extends ListParams {
  status?: string | undefined;
  hardware_id?: number | undefined;
}

const page = (ctx: VerbContext, input: AgentListInput) =>
  listPage<AgentRow, AgentSummaryShape>(
    ctx.db,
    SPEC,
    input,
    [
      input.status !== undefined ? eq(agents.status, input.status) : undefined,
      input.hardware_id !== undefined ? eq(agents.hardware_id, input.hardware_id) : undefined,
    ],
    (rows) => presentSummaries(ctx.db, rows, ctx.clock.now()),
  );

export const listAgents = defineRead<AgentListInput, ListPage<AgentSummaryShape>>({ scope: READ_AGENTS }, page);

export const listPendingAgents = defineRead<Omit<AgentListInput, "status">, ListPage<AgentSummaryShape>>(
  { scope: READ_AGENTS },
  (ctx, input) => page(ctx, { ...input, status: "pending" }),
);

export const getAgent = defineRead<{ id: number }, AgentReadShape>({ scope: READ_AGENTS }, async (ctx, { id }) =>
  presentAgent(ctx.db, await requireAgent(ctx.db, id), ctx.clock.now()),
);

/** GET /agents/capability-defaults: what approval grants unless told otherwise. */
export const capabilityDefaults = defineRead<undefined, Grants>({ scope: READ_AGENTS }, async () => effectiveGrants({}));
