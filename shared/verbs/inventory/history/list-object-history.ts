// GET /history: one inventory object's audit entries, newest first, for any caller who may read the
// object (its kind's read scope), not only administrators (docs/adr/0483-object-history-for-readers.md).
// A reader sees who changed what and when; the address, role and hash chain stay in the admin log.
import type * as v from "valibot";
import { users } from "../../../db/schema/index.ts";
import type { ObjectHistoryEntry, ObjectHistoryQuery } from "../../../schemas/object-history.ts";
import { auditPage } from "../../audit/list-entries.ts";
import { namesById } from "../../resources/present.ts";
import type { ListPage } from "../../resources/list.ts";
import { defineRead } from "../../verb.ts";
import { requireKindScope, requireObject } from "../object-kinds.ts";

type Query = v.InferOutput<typeof ObjectHistoryQuery>;
type Entry = v.InferOutput<typeof ObjectHistoryEntry>;

export const listObjectHistory = defineRead<Query, ListPage<Entry>>(
  { scope: (ctx, q) => requireKindScope(ctx, q.object_type, "read") },
  async (ctx, q) => {
    // A deleted object's entries stay in the admin log; here, as on the journal, the object must be there.
    await requireObject(ctx.db, q.object_type, q.object_id);
    const { object_type, object_id, ...paging } = q;
    const page = await auditPage(ctx.db, { ...paging, entity_type: object_type, entity_id: String(object_id) });
    const names = await namesById(
      ctx.db,
      users,
      users.id,
      users.display_name,
      page.items.map((e) => e.actor_id),
    );
    return {
      ...page,
      items: page.items.map((e) => ({
        id: e.id,
        timestamp: e.timestamp,
        action: e.action,
        actor_id: e.actor_id,
        actor_name: (e.actor_id !== null ? names.get(e.actor_id) : undefined) ?? e.actor_email,
        diff: e.diff,
      })),
    };
  },
);
