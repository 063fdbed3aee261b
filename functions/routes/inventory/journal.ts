// [journal] /journal, /journal/{journal_entry_id}: dated Markdown notes on inventory objects (issue 33
// item 6, docs/adr/0485-object-journal.md, docs/journal.md). One route set for every kind, the object
// named by object_type and object_id as the audit log (GET /logs?entity_type=&entity_id=) names it.
import type { Context, Hono } from "hono";
import { listResponse } from "../../../shared/schemas/list-query.ts";
import { JournalCreate, JournalEntry, JournalEntryId, JournalListQuery, JournalPatch } from "../../../shared/schemas/journal.ts";
import { createJournalEntry } from "../../../shared/verbs/inventory/journal/create-entry.ts";
import { deleteJournalEntry } from "../../../shared/verbs/inventory/journal/delete-entry.ts";
import { getJournalEntry } from "../../../shared/verbs/inventory/journal/get-entry.ts";
import { listJournalEntries } from "../../../shared/verbs/inventory/journal/list-entries.ts";
import { updateJournalEntry } from "../../../shared/verbs/inventory/journal/update-entry.ts";
import { OBJECT_TYPES } from "../../../shared/verbs/inventory/object-kinds.ts";
import { parseIfMatch } from "../../../shared/verbs/resources/if-match.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { withEtag } from "./resource-routes.ts";

const BASE = "/api/v1/journal";
const ONE = `${BASE}/:journal_entry_id`;
const ifMatch = (c: Context<AppEnv>) => parseIfMatch(c.req.header("if-match"));

const WHO =
  "Reading needs the read scope of the object's kind (read:hardware, read:compute, read:services for services, environments and categories, read:networks for networks, VLANs and IP addresses, ...); writing needs its write scope.";
const AUTHOR = "Only the entry's author, or an administrator (admin:*), may change or delete it (403 otherwise).";

export function journalRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: BASE,
      tag: "journal",
      summary: "List journal entries, newest first",
      description: `Filters: object_type (${OBJECT_TYPES.join(", ")}) with object_id for one object's journal (404 when the object is not there; object_id alone is a 422), kind, created_by (a user id), created_after and created_before (ISO 8601; after is inclusive, before exclusive), q (text in the comments). Sorts: created_at (default, desc), updated_at, kind. Without object_type: the entries of every kind the caller may read. ${WHO}`,
      query: JournalListQuery,
      response: { schema: listResponse(JournalEntry) },
    },
    async (c, { query, reply }) => reply(await listJournalEntries({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "post",
      path: BASE,
      tag: "journal",
      summary: "Write a journal entry on an inventory object",
      description: `Body {object_type, object_id, kind? (info, success, warning, danger; default info), comments (Markdown, 1-20,000 characters)}. 404 when the object is not there. The answer carries comments_html, the Markdown rendered and sanitised. ${WHO}`,
      body: JournalCreate,
      response: { status: 201, schema: JournalEntry },
    },
    async (c, { body, reply }) => withEtag(c, await createJournalEntry({ ctx: verbContext(c), input: body }), reply),
  );

  route(
    app,
    {
      method: "get",
      path: ONE,
      tag: "journal",
      summary: "Get a journal entry",
      description: WHO,
      params: JournalEntryId,
      response: { schema: JournalEntry },
    },
    async (c, { params, reply }) =>
      withEtag(c, await getJournalEntry({ ctx: verbContext(c), input: { id: params.journal_entry_id } }), reply),
  );

  route(
    app,
    {
      method: "patch",
      path: ONE,
      tag: "journal",
      summary: "Change a journal entry's kind or comments (If-Match honoured)",
      description: `Body {kind?, comments?}; an entry stays on its object. ${AUTHOR} ${WHO}`,
      params: JournalEntryId,
      body: JournalPatch,
      response: { schema: JournalEntry },
      errors: [412],
    },
    async (c, { params, body, reply }) =>
      withEtag(
        c,
        await updateJournalEntry({ ctx: verbContext(c), input: { id: params.journal_entry_id, values: body, ifMatch: ifMatch(c) } }),
        reply,
      ),
  );

  route(
    app,
    {
      method: "delete",
      path: ONE,
      tag: "journal",
      summary: "Delete a journal entry (If-Match honoured)",
      description: `${AUTHOR} ${WHO} Deleting an object deletes its journal with it.`,
      params: JournalEntryId,
      response: { status: 204, description: "Deleted" },
      errors: [412],
    },
    async (c, { params }) => {
      await deleteJournalEntry({ ctx: verbContext(c), input: { id: params.journal_entry_id, ifMatch: ifMatch(c) } });
      return c.body(null, 204);
    },
  );
}
