// Configuration as code (docs/cli.md, docs/adr/0500): which inventory object a lab file's entry is.
// `POST /config/apply` records (kind, key) -> object id for every object it creates or adopts, under
// the file's `owner` (a lab name), in the apply's own transaction. `--prune` deletes only objects
// recorded here for that owner, so an object created in the console is never pruned. No foreign key
// (the id spans many tables): a row whose object was deleted elsewhere is replaced by the next apply.
import { index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { timestamps } from "./columns.ts";

export const configObjects = pgTable(
  "config_objects",
  {
    /** The lab file's name for the set it owns (`owner:` in the file; "default" when not given). */
    owner: text("owner").notNull(),
    /** The file's kind: a key of the export document (hardware, services, ...). */
    kind: text("kind").notNull(),
    /** The entry's stable key: its explicit `key`, else its name within the kind. */
    key: text("key").notNull(),
    object_id: integer("object_id").notNull(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.owner, t.kind, t.key] }), index("config_objects_object_idx").on(t.kind, t.object_id)],
);
