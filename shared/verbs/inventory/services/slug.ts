// Service slugs (docs/architecture.md, API contracts): derived from the name when absent and made unique with -2, -3 ...; an
// explicit slug that another service holds is a 409 naming the field.
import { and, eq, like, ne, or, sql } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { slugText } from "../../../domain/slug-text.ts";
import { services } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";

const SLUG_LOCK = 7_246_041; // first key of the two-key advisory lock that serialises deriving one base slug

/** "My App (prod)" -> "my-app-prod": lower-case, accents dropped, every run of other characters one dash. */
export function slugify(name: string): string {
  return slugText(name, 120) || "service";
}

/** The first of base, base-2, base-3 ... that no other service holds. */
export async function uniqueSlug(tx: Db, base: string, exceptId?: number): Promise<string> {
  // Two creates deriving the same base would otherwise both pick the same free suffix.
  await tx.execute(sql`select pg_advisory_xact_lock(${SLUG_LOCK}, hashtext(${base}))`);
  const rows = await tx
    .select({ slug: services.slug })
    .from(services)
    .where(
      and(or(eq(services.slug, base), like(services.slug, `${base}-%`)), exceptId === undefined ? undefined : ne(services.id, exceptId)),
    );
  const taken = new Set(rows.map((r) => r.slug));
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

/** An explicit slug: 409 when another service holds it. */
export async function requireFreeSlug(tx: Db, slug: string, exceptId?: number): Promise<void> {
  const [holder] = await tx
    .select({ id: services.id, name: services.name })
    .from(services)
    .where(and(eq(services.slug, slug), exceptId === undefined ? undefined : ne(services.id, exceptId)));
  if (holder)
    throw ApiError.conflict(`Slug "${slug}" is already taken by service ${holder.id} (${holder.name}).`, {
      fields: { slug: "already taken" },
    });
}
