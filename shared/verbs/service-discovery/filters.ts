// The filters both service discovery reads share (docs/adr/0482): a site by id and an environment by
// name must exist, or the read is a 422 naming the parameter. A scrape or inventory config pointing at a
// deleted site then fails loudly instead of quietly finding nothing; a tag is a free label, so an
// unknown one simply matches nothing.
import { type SQL, sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { ApiError } from "../../errors.ts";
import type { VerbContext } from "../verb-context.ts";

export interface SdFilters {
  site_id?: number | undefined;
  environment?: string | undefined;
  tag?: string | undefined;
}

/** The environment's id when one is asked for; throws the 422 for an unknown site or environment. */
export async function checkSdFilters(ctx: VerbContext, f: SdFilters): Promise<{ environmentId: number | null }> {
  const [row] = await queryRows<{ site: number | null; env: number | null }>(
    ctx.db,
    sql`select (select id from sites where id = ${f.site_id ?? null}::int) as site,
               (select id from environments where name = ${f.environment ?? null}::text) as env`,
  );
  const issues = [];
  if (f.site_id !== undefined && row?.site == null)
    issues.push({ loc: ["query", "site_id"], msg: `Site ${f.site_id} was not found.`, type: "not_found" });
  if (f.environment !== undefined && row?.env == null)
    issues.push({ loc: ["query", "environment"], msg: `Environment "${f.environment}" was not found.`, type: "not_found" });
  if (issues.length > 0) throw ApiError.validation(issues);
  return { environmentId: row?.env ?? null };
}

/** The conditions given (false ones left out) joined with `and`; `true` when none is. */
export function allOf(parts: (SQL | false)[]): SQL {
  return sql.join([sql`true`, ...parts.filter((p): p is SQL => p !== false)], sql` and `);
}
