// Custom fields (docs/custom-fields.md, docs/adr/0495): the definitions' request and read shapes, and the
// `custom_fields` property every inventory kind's read shape and write bodies carry.
import * as v from "valibot";
import { CUSTOM_FIELD_NAME, CUSTOM_FIELD_TYPES, CUSTOM_TEXT_MAX } from "../domain/custom-fields.ts";
import { OBJECT_TYPES } from "../verbs/inventory/object-kinds.ts";
import { MAX_INT4, OptionalText, patchBody, writeBody } from "./fields.ts";
import { listQuery } from "./list-query.ts";

const VALUES_DESCRIPTION =
  "The object's custom field values by field name (GET /api/v1/custom-fields lists the fields of each kind and their types). " +
  "In a create or PATCH body only the names given change (null clears one); an unknown name, a wrong type, a missing required field " +
  "or a value its definition refuses is a 422 naming `custom_fields.<name>`. A create gets each field's default.";

/** The read shape's values. */
export const CustomFieldValues = v.pipe(v.record(v.string(), v.unknown()), v.description(VALUES_DESCRIPTION));
/** The write bodies' values: checked against the definitions by the verbs. */
export const CustomFieldValuesInput = v.optional(
  v.pipe(
    v.record(v.pipe(v.string(), v.maxLength(100)), v.unknown()),
    v.maxEntries(200, "At most 200 custom fields."),
    v.description(VALUES_DESCRIPTION),
  ),
);

const FieldName = v.pipe(
  v.string(),
  v.regex(CUSTOM_FIELD_NAME, "Must start with a lowercase letter, then lowercase letters, digits or _."),
  v.maxLength(60),
);
const Bound = v.optional(v.nullable(v.pipe(v.number(), v.finite())));
const Length = v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(CUSTOM_TEXT_MAX))));

const writable = {
  name: FieldName,
  label: v.pipe(v.string(), v.trim(), v.minLength(1, "Must not be empty."), v.maxLength(200)),
  description: OptionalText(2000),
  kinds: v.pipe(
    v.array(v.picklist(OBJECT_TYPES, `Each must be one of: ${OBJECT_TYPES.join(", ")}.`)),
    v.minLength(1, "Name at least one inventory kind."),
    v.transform((k) => [...new Set(k)]),
  ),
  type: v.picklist(CUSTOM_FIELD_TYPES, `Must be one of: ${CUSTOM_FIELD_TYPES.join(", ")}.`),
  required: v.optional(v.boolean(), false),
  default: v.optional(v.unknown()),
  choices: v.optional(v.pipe(v.array(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200))), v.maxLength(500)), []),
  reference_kind: v.optional(v.nullable(v.picklist(OBJECT_TYPES, `Must be one of: ${OBJECT_TYPES.join(", ")}.`))),
  regex: v.optional(v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(500)))),
  min_value: Bound,
  max_value: Bound,
  min_length: Length,
  max_length: Length,
  weight: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_INT4)), 100),
};

export const CustomFieldCreate = writeBody(writable);
/** name and type never change (values are keyed and typed by them); everything else may. */
const { name: _name, type: _type, ...changeable } = writable;
export const CustomFieldPatch = patchBody(changeable, ["name", "type"]);

export const CustomField = v.object({
  id: v.number(),
  name: v.string(),
  label: v.string(),
  description: v.nullable(v.string()),
  kinds: v.array(v.string()),
  type: v.picklist(CUSTOM_FIELD_TYPES),
  required: v.boolean(),
  default: v.unknown(),
  choices: v.array(v.string()),
  reference_kind: v.nullable(v.string()),
  regex: v.nullable(v.string()),
  min_value: v.nullable(v.number()),
  max_value: v.nullable(v.number()),
  min_length: v.nullable(v.number()),
  max_length: v.nullable(v.number()),
  weight: v.number(),
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
});

export const CustomFieldListQuery = listQuery(["weight", "name", "label", "type", "created_at", "updated_at"], {
  kind: v.optional(v.picklist(OBJECT_TYPES, `Must be one of: ${OBJECT_TYPES.join(", ")}.`)),
  type: v.optional(v.picklist(CUSTOM_FIELD_TYPES, `Must be one of: ${CUSTOM_FIELD_TYPES.join(", ")}.`)),
});

/** DELETE /custom-fields/{id}: how many objects lost their value of the field. */
export const CustomFieldDeleted = v.object({ values_removed: v.number() });
