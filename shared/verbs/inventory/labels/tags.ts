// The tag set: every tag the resources carry (registered in `tags` when a resource is written with it),
// its colour and how many resources use it, counted in one statement across every tagged table. The
// colour is UI layout, so changing it needs write:layout (editors hold it).
import { inArray, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/database.ts";
import { computeUnits, externalNodes, hardware, miscItems, networks, services, storage, tags } from "../../../db/schema/index.ts";
import { defineResource } from "../../resources/resource-def.ts";
import { resourceVerbs } from "../../resources/resource-verbs.ts";
import { defineRead } from "../../verb.ts";

export interface TagView {
  id: number;
  name: string;
  color: string | null;
  usage_count: number;
}

const TAGGED = [hardware, computeUnits, services, storage, networks, externalNodes, miscItems];

/** Tags with their usage counts; `ids` limits to those tags. One statement. */
async function tagsWithUsage(db: Db, ids?: number[]): Promise<TagView[]> {
  const used = sql.join(
    TAGGED.map((t) => sql`select unnest(${t.tags}) as tag from ${t}`),
    sql` union all `,
  );
  return queryRows<TagView>(
    db,
    sql`
    select ${tags.id} as id, ${tags.name} as name, ${tags.color} as color, coalesce(u.n, 0)::int as usage_count
    from ${tags}
    left join (select tag, count(*) as n from (${used}) x group by tag) u on u.tag = ${tags.name}
    ${ids ? sql`where ${inArray(tags.id, ids)}` : sql``}
    order by ${tags.name}`,
  );
}

export const tagVerbs = resourceVerbs(
  defineResource({
    label: "Tag",
    entityType: "tag",
    scopeResource: "layout",
    table: tags,
    columns: { id: tags.id },
    channels: ["inventory", "topology"],
    list: { sortable: { name: tags.name }, search: [tags.name] },
    async present(db, rows) {
      return tagsWithUsage(
        db,
        rows.map((r) => r.id),
      );
    },
  }),
);

/** GET /tags: every tag, a bare array sorted by name. */
export const listTags = defineRead({ scope: tagVerbs.scopes.read }, (ctx, _input: void) => tagsWithUsage(ctx.db));
