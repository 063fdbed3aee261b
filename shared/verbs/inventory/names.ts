// GET /inventory/names: the names of the inventory records a screen refers to by id, every kind in one
// query (docs/adr/0468). The console shows a reference as the record's name with a link, and a page of
// references would otherwise be one request each. Each kind asked needs its own read scope: a kind the
// caller cannot read is refused (403) rather than quietly left out, so a missing name always means a
// record that is not there.
import { inArray, sql, type SQL } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { ApiError } from "../../errors.ts";
import { actorCan } from "../actor.ts";
import { defineRead } from "../verb.ts";
import { OBJECT_KINDS, OBJECT_TYPES, type ObjectType, readScopeOf } from "./object-kinds.ts";

export type NamedKind = ObjectType;
export const NAMED_KINDS = OBJECT_TYPES;

export type NamesInput = Partial<Record<NamedKind, number[]>>;
export interface NamedRecord {
  type: NamedKind;
  id: number;
  name: string;
}

const asked = (input: NamesInput) => NAMED_KINDS.filter((k) => (input[k]?.length ?? 0) > 0);

export const lookUpNames = defineRead<NamesInput, { items: NamedRecord[] }>(
  {
    scope: (ctx, input) => {
      if (!ctx.actor) throw ApiError.unauthorized("Authentication required.");
      const denied = asked(input).filter((k) => !actorCan(ctx.actor!, readScopeOf(k)));
      if (denied.length > 0)
        throw ApiError.forbidden(`Looking up ${denied.join(", ")} needs ${[...new Set(denied.map(readScopeOf))].join(", ")}.`);
    },
  },
  async (ctx, input) => {
    const kinds = asked(input);
    if (kinds.length === 0) return { items: [] };
    // One statement: a branch per kind asked, each an index lookup of at most a list page of ids.
    const branches: SQL[] = kinds.map((k) => {
      const { table, id, name } = OBJECT_KINDS[k];
      const ids = [...new Set(input[k])];
      return sql`(select ${k}::text as type, ${id} as id, ${name}::text as name from ${table} where ${inArray(id, ids)})`;
    });
    const rows = await queryRows<NamedRecord>(ctx.db, sql.join(branches, sql` union all `));
    return { items: rows.map((r) => ({ ...r, id: Number(r.id) })) };
  },
);
