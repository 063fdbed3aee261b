// Custom field definitions (issue 33, docs/custom-fields.md, docs/adr/0495): fields an administrator adds
// to one or more inventory kinds. The values live on each kind's row (its `custom_fields` jsonb,
// inventory.ts); a definition says what a value may be. `kinds` are object kinds of
// shared/verbs/inventory/object-kinds.ts; values are checked by shared/domain/custom-fields.ts.
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, serial, text } from "drizzle-orm/pg-core";
import { timestamps } from "./columns.ts";

export const customFieldDefinitions = pgTable(
  "custom_field_definitions",
  {
    id: serial("id").primaryKey(),
    /** The key in `custom_fields` and the `cf_<name>` of filters, sorts and CSV columns; never changes. */
    name: text("name").notNull().unique(),
    label: text("label").notNull(),
    description: text("description"),
    kinds: text("kinds").array().notNull(),
    /** text | integer | decimal | boolean | date | url | selection | multi_selection | reference; never changes. */
    type: text("type").notNull(),
    required: boolean("required").notNull().default(false),
    /** The value a create without one gets (null: none). */
    default_value: jsonb("default_value"),
    choices: text("choices").array().notNull().default(sql`'{}'::text[]`),
    /** For a reference: the object kind its values name. */
    reference_kind: text("reference_kind"),
    regex: text("regex"),
    min_value: jsonb("min_value").$type<number>(),
    max_value: jsonb("max_value").$type<number>(),
    min_length: integer("min_length"),
    max_length: integer("max_length"),
    /** Forms and lists order fields by weight, then name. */
    weight: integer("weight").notNull().default(100),
    version: integer("version").notNull().default(1),
    ...timestamps,
  },
  (t) => [
    index("custom_field_definitions_kinds_idx").using("gin", t.kinds),
    check("custom_field_definitions_name", sql`${t.name} ~ '^[a-z][a-z0-9_]*$'`),
  ],
);
