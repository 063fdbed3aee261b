// Bulk delete, bulk tag and bulk update (one or more fields set alike, docs/adr/0470) over a resource's own verbs: one transaction for the whole selection, each
// record deleted or retagged by the resource's verb (its scope, its dependents rule, its audit entry and
// events), each in a savepoint so that every record that cannot be changed is found and named. When
// any is refused the whole selection is left as it was: 422 listing them, nothing changed.
import { ApiError, type ValidationIssue } from "../../errors.ts";
import type { BulkRefusal } from "../../schemas/bulk.ts";
import { defineVerb, type Verb } from "../verb.ts";
import type { VerbContext } from "../verb-context.ts";
import type { ResourceVerbs } from "./resource-verbs.ts";

export interface BulkVerbs {
  remove: Verb<{ ids: number[] }, { deleted: number[]; count: number }>;
  retag: Verb<{ ids: number[]; add: string[]; remove: string[] }, { changed: number[]; unchanged: number[] }>;
}

/** Bulk update: the fields set alike on every record, as a PATCH of the resource would set them. */
export type BulkUpdateVerb<V> = Verb<{ ids: number[]; values: V }, { updated: number[] }>;

/** The most tags a record carries (the write schemas' limit). */
const MAX_TAGS = 50;

/** A per-record refusal the bulk operation reports, or the error itself when it is not about the record. */
function refusalOf(id: number, err: unknown): BulkRefusal {
  if (!(err instanceof ApiError)) throw err;
  const detail = typeof err.detail === "string" ? err.detail : err.detail.map((i) => i.msg).join("; ");
  if (err.code === "RESOURCE_NOT_FOUND") return { id, reason: "not_found", detail };
  if (err.code === "CONFLICT" || err.code === "PRECONDITION_FAILED") return { id, reason: "conflict", detail };
  if (err.code === "VALIDATION_ERROR") return { id, reason: "invalid", detail };
  throw err;
}

function refused(ids: number[], refusals: BulkRefusal[], what: string): ApiError {
  const issues: ValidationIssue[] = refusals.map((r) => ({ loc: ["body", "ids", ids.indexOf(r.id)], msg: r.detail, type: r.reason }));
  const named = `${refusals.length === 1 ? "id" : "ids"} ${refusals.map((r) => r.id).join(", ")}`;
  const fields = { ids: `${refusals.length} of the ${ids.length} selected cannot be ${what} (${named}). Nothing was changed.` };
  return new ApiError("VALIDATION_ERROR", issues, { fields, refused: refusals });
}

/** Runs `each` on every id in its own savepoint (the resource verb's transaction nests), collecting refusals. */
async function eachId(ids: number[], each: (id: number) => Promise<void>): Promise<BulkRefusal[]> {
  const refusals: BulkRefusal[] = [];
  for (const id of ids) {
    try {
      await each(id);
    } catch (err) {
      refusals.push(refusalOf(id, err));
    }
  }
  return refusals;
}

export function bulkVerbs<Api, Q, V>(verbs: ResourceVerbs<Api, Q, V, number>): BulkVerbs {
  const inTx = (ctx: VerbContext, tx: VerbContext["db"]): VerbContext => ({ ...ctx, db: tx });
  return {
    remove: defineVerb({ scope: verbs.scopes.delete }, async (s, { ids }: { ids: number[] }) => {
      const ctx = inTx(s.ctx, s.tx);
      const refusals = await eachId(ids, (id) => verbs.remove({ ctx, input: { id } }));
      if (refusals.length > 0) throw refused(ids, refusals, "deleted");
      return { deleted: ids, count: ids.length };
    }),

    retag: defineVerb(
      { scope: verbs.scopes.write },
      async (s, { ids, add, remove }: { ids: number[]; add: string[]; remove: string[] }) => {
        const ctx = inTx(s.ctx, s.tx);
        const changed: number[] = [];
        const unchanged: number[] = [];
        const refusals = await eachId(ids, async (id) => {
          const { item, version } = await verbs.get({ ctx, input: { id } });
          const before = (item as { tags?: unknown }).tags;
          if (!Array.isArray(before)) throw new Error(`bulk tags on a resource without tags (record ${id})`);
          const tags = [...new Set([...before.filter((t) => !remove.includes(t as string)), ...add])] as string[];
          if (tags.length === before.length && tags.every((t) => before.includes(t))) return void unchanged.push(id);
          if (tags.length > MAX_TAGS)
            throw ApiError.validation([
              { loc: ["body", "add"], msg: `Record ${id} would carry ${tags.length} tags; at most ${MAX_TAGS}.`, type: "value_error" },
            ]);
          // If-Match on the version just read: a change made in between is a refusal, never overwritten.
          await verbs.update({ ctx, input: { id, values: { tags } as V, ifMatch: version } });
          changed.push(id);
        });
        if (refusals.length > 0) throw refused(ids, refusals, "retagged");
        return { changed, unchanged };
      },
    ),
  };
}

/** The bulk update of a resource: each record written by its PATCH verb (its checks, audit entry and events). */
export function bulkUpdateVerb<Api, Q, V>(verbs: ResourceVerbs<Api, Q, V, number>): BulkUpdateVerb<V> {
  return defineVerb({ scope: verbs.scopes.write }, async (s, { ids, values }: { ids: number[]; values: V }) => {
    const ctx = { ...s.ctx, db: s.tx };
    const refusals = await eachId(ids, async (id) => void (await verbs.update({ ctx, input: { id, values } })));
    if (refusals.length > 0) throw refused(ids, refusals, "changed");
    return { updated: ids };
  });
}
