// GET /graph/summary: how big the topology is before it is loaded (nodes per kind, edges per pair of
// kinds), counted straight from the tables the graph is built from (./sources.ts). The web console
// draws these as closed groups at once, while the whole graph (tens of MB past 100,000 objects) follows.
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { NODE_TYPES, type NodeType } from "../../domain/graph-ids.ts";
import { defineRead } from "../verb.ts";
import { EDGE_SOURCES, NODE_SOURCES } from "./sources.ts";

export interface GraphSummary {
  counts: { nodes: number; edges: number };
  kinds: { type: NodeType; count: number }[];
  links: { source_type: NodeType; target_type: NodeType; count: number }[];
}

export const graphSummary = defineRead(
  { scope: "read:graph" },
  async (ctx, options: { types?: NodeType[] | undefined }): Promise<GraphSummary> => {
    const types = options.types && options.types.length > 0 ? options.types : NODE_TYPES;
    const wanted = new Set(types);
    const edgeSources = EDGE_SOURCES.filter(([, , , s, t]) => wanted.has(s[0]) && wanted.has(t[0]));
    const [kindRows, linkRows] = await Promise.all([
      queryRows<{ type: NodeType; n: number }>(
        ctx.db,
        sql.join(
          types.map((t) => sql`select ${t}::text as type, count(*)::int as n from ${NODE_SOURCES[t].table}`),
          sql` union all `,
        ),
      ),
      edgeSources.length === 0
        ? Promise.resolve([])
        : queryRows<{ s: NodeType; t: NodeType; n: number }>(
            ctx.db,
            // The same FROM clauses as the graph's edges (fixed strings in sources.ts, no input in them).
            sql.raw(
              edgeSources
                .map(([, , , s, t, from]) => `select '${s[0]}' as s, '${t[0]}' as t, count(*)::int as n from ${from}`)
                .join(" union all "),
            ),
          ),
    ]);
    const kinds = kindRows.filter((r) => r.n > 0).map((r) => ({ type: r.type, count: Number(r.n) }));
    const byPair = new Map<string, GraphSummary["links"][number]>();
    for (const r of linkRows) {
      if (Number(r.n) === 0) continue;
      const key = `${r.s}>${r.t}`;
      const have = byPair.get(key);
      if (have) have.count += Number(r.n);
      else byPair.set(key, { source_type: r.s, target_type: r.t, count: Number(r.n) });
    }
    const links = [...byPair.values()];
    return {
      counts: { nodes: kinds.reduce((s, k) => s + k.count, 0), edges: links.reduce((s, l) => s + l.count, 0) },
      kinds,
      links,
    };
  },
);
