// The list contract of docs/architecture.md, API contracts: limit (default 25, clamped to 100), offset, sort, direction, q,
// plus per-resource filters. Query values arrive as strings.
import * as v from "valibot";
import { MAX_INT4 } from "./fields.ts";

/** A whole number in a query string, `fallback` when absent, between `min` and `max` (the 9 digits allowed). */
export const queryInt = (fallback: number, min: number, max = 999_999_999) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.regex(/^\d{1,9}$/, "Must be a whole number."),
    v.transform(Number),
    v.minValue(min, `Must be at least ${min}.`),
    v.maxValue(max, `Must be at most ${max}.`),
  );

/**
 * The one `limit` of every query that has one (docs/adr/0410): a whole number from 1, `default` when
 * absent; above the endpoint's `max` it is clamped to `max`, never refused (the list contract: a list
 * answers the applied `limit` in its envelope); 0, a negative or a non-integer is a 422. The OpenAPI
 * description names the default, the maximum and the clamping.
 */
export function limitParam({ default: fallback, max }: { default: number; max: number }) {
  return v.pipe(
    v.optional(v.string(), String(fallback)),
    v.regex(/^\d+$/, "Must be a whole number."),
    v.transform(Number),
    v.minValue(1, "Must be at least 1."),
    v.transform((n) => Math.min(n, max)),
    v.description(`How many items at most: a whole number from 1, default ${fallback}. Above ${max} it is clamped to ${max}, not refused.`),
  );
}

/** The list contract's limit: default 25, clamped to 100. */
export const Limit = limitParam({ default: 25, max: 100 });
export const Offset = queryInt(0, 0);
export const Direction = v.optional(v.picklist(["asc", "desc"], "Must be asc or desc."), "asc");
export const Q = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200)));
export const IntFilter = v.optional(
  v.pipe(
    v.string(),
    v.regex(/^\d{1,10}$/, "Must be an integer id."),
    v.transform(Number),
    v.maxValue(MAX_INT4, `Must be at most ${MAX_INT4}.`),
  ),
);
/** A date or timestamp filter (ISO 8601), read as a Date. */
export const When = v.pipe(
  v.string(),
  v.check((s) => /^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)), "Use an ISO 8601 date or timestamp (2026-01-31T12:00:00Z)."),
  v.transform((s) => new Date(s)),
);
export const TextFilter = v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)));

export function listQuery<const S extends readonly [string, ...string[]], F extends v.ObjectEntries>(
  sortKeys: S,
  filters: F,
  defaultSort: S[number] = sortKeys[0],
) {
  return v.object({
    limit: Limit,
    offset: Offset,
    sort: v.optional(v.picklist(sortKeys, `Must be one of: ${sortKeys.join(", ")}.`), defaultSort),
    direction: Direction,
    q: Q,
    ...filters,
  });
}

/** A `cf_<name>` list parameter: a custom field's filter (with __gte/__lte on numbers and dates) or sort key. */
export const CUSTOM_FIELD_PARAM = /^cf_([a-z][a-z0-9_]*?)(?:__(gte|lte))?$/;
const CUSTOM_FIELD_SORT = /^cf_[a-z][a-z0-9_]*$/;

/**
 * The list query of an inventory kind, whose objects carry custom fields (docs/custom-fields.md): the
 * list contract plus `sort=cf_<name>` and any `cf_<name>[__gte|__lte]=value` filter, which the list verb
 * checks against the kind's definitions (an unknown field is a 422 there, where the definitions are read).
 */
export function inventoryListQuery<const S extends readonly [string, ...string[]], F extends v.ObjectEntries>(
  sortKeys: S,
  filters: F,
  defaultSort: S[number] = sortKeys[0],
) {
  return v.objectWithRest(
    {
      ...listQuery(sortKeys, filters, defaultSort).entries,
      sort: v.optional(
        v.union(
          [v.picklist(sortKeys), v.pipe(v.string(), v.regex(CUSTOM_FIELD_SORT))],
          `Must be one of: ${sortKeys.join(", ")}, or cf_<name> for a custom field.`,
        ),
        defaultSort,
      ),
    },
    v.pipe(v.unknown(), v.description("cf_<name>=value (and cf_<name>__gte / __lte for numbers and dates): a custom field filter.")),
  );
}

export interface ListParams {
  limit: number;
  offset: number;
  sort: string;
  direction: "asc" | "desc";
  q?: string | undefined;
}

export function listResponse<T extends v.GenericSchema>(item: T) {
  return v.object({
    items: v.array(item),
    total: v.number(),
    limit: v.number(),
    offset: v.number(),
    sort: v.string(),
    direction: v.picklist(["asc", "desc"]),
  });
}
