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
import { type OfferSource, type UpdateOffer, updateOffers } from "./update-offer.ts";

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

export interface AgentListInput extends ListParams, OfferSource {
  status?: string | undefined;
  hardware_id?: number | undefined;
}

export type AgentListItemShape = AgentSummaryShape & UpdateOffer;
export type AgentDetailShape = AgentReadShape & UpdateOffer;

const page = (ctx: VerbContext, input: AgentListInput) =>
  listPage<AgentRow, AgentListItemShape>(
    ctx.db,
    SPEC,
    input,
    [
      input.status !== undefined ? eq(agents.status, input.status) : undefined,
      input.hardware_id !== undefined ? eq(agents.hardware_id, input.hardware_id) : undefined,
    ],
    async (rows) => {
      const items = await presentSummaries(ctx.db, rows, ctx.clock.now());
      const offers = updateOffers(rows, input);
      return items.map((item) => ({ ...item, ...offers.get(item.id)! }));
    },
  );

export const listAgents = defineRead<AgentListInput, ListPage<AgentListItemShape>>({ scope: READ_AGENTS }, page);

export const listPendingAgents = defineRead<Omit<AgentListInput, "status">, ListPage<AgentListItemShape>>(
  { scope: READ_AGENTS },
  (ctx, input) => page(ctx, { ...input, status: "pending" }),
);

export const getAgent = defineRead<{ id: number } & OfferSource, AgentDetailShape>({ scope: READ_AGENTS }, async (ctx, input) => {
  const row = await requireAgent(ctx.db, input.id);
  const read = await presentAgent(ctx.db, row, ctx.clock.now());
  const offers = updateOffers([row], input);
  return { ...read, ...offers.get(row.id)! };
});

/** GET /agents/capability-defaults: what approval grants unless told otherwise. */
export const capabilityDefaults = defineRead<undefined, Grants>({ scope: READ_AGENTS }, async () => effectiveGrants({}));
