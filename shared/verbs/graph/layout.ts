// Saved node positions of the graph view, per named layout (default "default").
import { eq, sql } from "drizzle-orm";
import { graphLayouts } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { NODE_ID } from "../../domain/graph-ids.ts";
import { defineRead, defineVerb } from "../verb.ts";

export type Positions = Record<string, { x: number; y: number }>;

export const getLayout = defineRead({ scope: "read:layout" }, async (ctx, { name }: { name: string }) => {
  const [row] = await ctx.db.select().from(graphLayouts).where(eq(graphLayouts.name, name));
  return { name, positions: row?.positions ?? {}, updated_at: row?.updated_at.toISOString() ?? null };
});

function checkIds(positions: Positions): void {
  const bad = Object.keys(positions).filter((id) => !NODE_ID.test(id));
  if (bad.length > 0)
    throw ApiError.validation(
      bad
        .slice(0, 20)
        .map((id) => ({ loc: ["body", "positions", id], msg: "Not a graph node id (hw-1, svc-2, ...).", type: "value_error" })),
    );
}

/** Saves positions: `replace` swaps the whole layout, otherwise the given nodes are merged in. */
export interface LayoutSave {
  name: string;
  positions: Positions;
  replace: boolean;
}

export const saveLayout = defineVerb(
  { scope: "write:layout", prepare: async (_ctx, { positions }: LayoutSave) => checkIds(positions) },
  async (s, { name, positions, replace }) => {
    const value = replace
      ? sql`${JSON.stringify(positions)}::jsonb`
      : sql`${graphLayouts.positions} || ${JSON.stringify(positions)}::jsonb`;
    const [row] = await s.tx
      .insert(graphLayouts)
      .values({ name, positions })
      .onConflictDoUpdate({ target: graphLayouts.name, set: { positions: value, updated_at: s.now } })
      .returning();
    s.audit({
      action: "graph.layout.save",
      category: "inventory",
      entity_type: "layout",
      entity_id: name,
      diff: { nodes: Object.keys(positions).length, replace },
    });
    s.emit("topology", { entity: "layout", action: "update", id: name });
    return { name, positions: row!.positions, updated_at: row!.updated_at.toISOString() };
  },
);
