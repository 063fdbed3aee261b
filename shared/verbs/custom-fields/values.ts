// The custom field step of an inventory write (docs/custom-fields.md): the values a create or update
// body gives, merged into what the row holds, checked against the kind's definitions (the rules are
// shared/domain/custom-fields.ts) and their references looked up. Every problem is one 422 naming
// `custom_fields.<name>`; nothing is written.
import { inArray } from "drizzle-orm";
import { resolveValues } from "../../domain/custom-fields.ts";
import { ApiError } from "../../errors.ts";
import { OBJECT_KINDS, type ObjectType } from "../inventory/object-kinds.ts";
import type { VerbScope } from "../verb.ts";
import { definitionsOf } from "./definitions.ts";

const issue = (field: string, msg: string) => ({ loc: ["body", ...field.split(".")], msg, type: "value_error" });

/**
 * The `custom_fields` column's value after a write of an object of `kind`: `stored` is the row's (undefined
 * on create), `given` the body's `custom_fields` (undefined: the write does not touch them; on create the
 * defaults still apply and the required fields are still asked for).
 */
export async function customFieldValues(
  s: VerbScope,
  kind: string,
  stored: Record<string, unknown> | undefined,
  given: Record<string, unknown> | undefined,
): Promise<Record<string, unknown>> {
  const defs = await definitionsOf(s.tx, kind);
  const { values, issues, references } = resolveValues(defs, stored, given ?? {});
  const problems = issues.map((i) => issue(i.field, i.msg));
  for (const [refKind, refs] of Object.entries(Object.groupBy(references, (r) => r.kind))) {
    const k = OBJECT_KINDS[refKind as ObjectType];
    const ids = [...new Set(refs!.map((r) => r.id))];
    const found = new Set(((await s.tx.select({ id: k.id }).from(k.table).where(inArray(k.id, ids))) as { id: number }[]).map((r) => r.id));
    for (const r of refs!) if (!found.has(r.id)) problems.push(issue(r.field, `${k.label} ${r.id} does not exist.`));
  }
  if (problems.length > 0) throw ApiError.validation(problems);
  return values;
}
