// GET /admin/export: the inventory as one versioned JSON document, written page by page while it is
// read. Every page is a keyset query (rows after the last key, ordered by the key) inside one
// read-only repeatable-read transaction, so the document is one consistent snapshot and only a page
// of rows is ever in memory. PostgreSQL writes each row's JSON text itself (json_build_object).
import { type SQL, sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { defineSnapshotRead } from "../verb.ts";
import { ADMIN_SCOPE } from "./scope.ts";
import { EXPORT_FORMAT, EXPORT_ORDER, EXPORT_VERSION, KIND_BY_KEY, type Kind, TAGGED_KINDS } from "./kinds.ts";
import { ident, jsonObject, list, qualified, tuple } from "./sql-parts.ts";

/** Rows per page: large enough that round trips do not dominate, small enough to keep memory flat. */
export const EXPORT_PAGE = 2000;

export interface ExportInput {
  /** Receives the document in pieces; awaiting it is the stream's backpressure. */
  write: (chunk: string) => Promise<void>;
  pageSize?: number;
}

export interface ExportSummary {
  exported_at: string;
  counts: Record<string, number>;
}

type Page = { r: string; k: unknown[] }[];

/** Writes one array of rows, page by page, and answers how many it wrote. */
async function writePages(write: ExportInput["write"], next: (after: unknown[] | null) => Promise<Page>): Promise<number> {
  let after: unknown[] | null = null;
  let count = 0;
  for (;;) {
    const page = await next(after);
    if (page.length === 0) return count;
    let text = "";
    for (const row of page) text += (count++ === 0 ? "\n" : ",\n") + row.r;
    await write(text);
    after = page[page.length - 1]!.k;
  }
}

function kindPage(ctxDb: Parameters<typeof queryRows>[0], kind: Kind, size: number) {
  const key = tuple("t", kind.pk);
  const keyArray = sql`json_build_array(${list(kind.pk.map((c) => qualified("t", c)))})`;
  return (after: unknown[] | null) => {
    const where: SQL = after ? sql`where ${key} > (${list(after.map((v) => sql`${v}`))})` : sql``;
    return queryRows<{ r: string; k: unknown[] }>(
      ctxDb,
      sql`select ${jsonObject("t", kind.columns)}::text as r, ${keyArray} as k from ${ident(kind.name)} t ${where} order by ${list(kind.pk.map((c) => qualified("t", c)))} limit ${size}`,
    );
  };
}

/**
 * entity_tags, which we do not keep as rows: the reference's {entity_type, entity_id, tag_id} derived
 * from each tagged kind's `tags` array and the tag set, ordered by kind, entity and tag.
 */
function entityTagPages(ctxDb: Parameters<typeof queryRows>[0], size: number) {
  let index = 0;
  return async (after: unknown[] | null): Promise<Page> => {
    for (; index < TAGGED_KINDS.length; index++, after = null) {
      const kind = TAGGED_KINDS[index]!;
      const where = after && after[0] === kind.entityType ? sql`where (k.id, g.id) > (${after[1]}, ${after[2]})` : sql``;
      const rows = await queryRows<{ r: string; k: unknown[] }>(
        ctxDb,
        sql`select json_build_object('entity_type', ${kind.entityType}::text, 'entity_id', k.id, 'tag_id', g.id)::text as r,
                   json_build_array(${kind.entityType}::text, k.id, g.id) as k
            from ${ident(kind.name)} k join tags g on g.name = any(k.tags) ${where}
            order by k.id, g.id limit ${size}`,
      );
      if (rows.length > 0) return rows;
    }
    return [];
  };
}

export const exportInventory = defineSnapshotRead<ExportInput, ExportSummary>({ scope: ADMIN_SCOPE }, async (ctx, { write, pageSize }) => {
  const size = pageSize ?? EXPORT_PAGE;
  const exported_at = ctx.clock.now().toISOString();
  const counts: Record<string, number> = {};
  await write(`{"version":${EXPORT_VERSION},"format":${JSON.stringify(EXPORT_FORMAT)},"exported_at":${JSON.stringify(exported_at)}`);
  for (const key of EXPORT_ORDER) {
    await write(`,\n${JSON.stringify(key)}:[`);
    const next = key === "entity_tags" ? entityTagPages(ctx.db, size) : kindPage(ctx.db, KIND_BY_KEY.get(key)!, size);
    counts[key] = await writePages(write, next);
    await write(counts[key] ? "\n]" : "]");
  }
  await write("\n}\n");
  return { exported_at, counts };
});
