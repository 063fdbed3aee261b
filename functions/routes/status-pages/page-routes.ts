// [status-pages] /status-pages*: the administrators' API of public status pages (docs/adr/0454-status-pages.md).
import type { Hono } from "hono";
import { IdParam } from "../../../shared/schemas/fields.ts";
import {
  StatusPageBody,
  StatusPageList,
  StatusPageListQuery,
  StatusPageOut,
  StatusPagePatchBody,
} from "../../../shared/schemas/status-pages.ts";
import { parseIfMatch } from "../../../shared/verbs/resources/if-match.ts";
import {
  createStatusPage,
  deleteStatusPage,
  getStatusPage,
  listStatusPages,
  patchStatusPage,
} from "../../../shared/verbs/status-pages/pages.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { withVersion } from "../updated-at-etag.ts";

export const STATUS_PAGES_BASE = "/api/v1/status-pages";
const ONE = `${STATUS_PAGES_BASE}/:page_id`;
const params = IdParam("page_id");

const SHAPE =
  "`slug` (unique, lower-case), `title`, `description`, `logo_url` (http(s) or a path), `primary_color`/`accent_color` (#RRGGBB; null: the branding colours), `footer_text`, " +
  "`published` (false: a draft, never public), `custom_domain` (unique host name: requests with that Host get the page at `/`). `sections` [{name, show_messages, items}] in order; " +
  'each item is {kind: "monitor", monitor_id, public_name}, {kind: "service", service_id, public_name} or {kind: "tag", tag, public_name?} (the tag\'s members follow the tag). ' +
  "`show_messages` opts a section in to showing its monitors' last messages publicly. A slug or domain already taken is a 409; an unknown monitor or service a 422 naming `sections[i].items[j].monitor_id`.";

export function statusPageRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: STATUS_PAGES_BASE,
      tag: "status-pages",
      scope: listStatusPages.scope,
      query: StatusPageListQuery,
      response: { schema: StatusPageList },
      summary: "List status pages",
      description: "The list envelope; sort title, slug, id, created_at; `q` over the title and slug. Drafts included.",
    },
    async (c, { query, reply }) => reply(await listStatusPages({ ctx: verbContext(c), input: query })),
  );
  route(
    app,
    {
      method: "post",
      path: STATUS_PAGES_BASE,
      tag: "status-pages",
      scope: createStatusPage.scope,
      body: StatusPageBody,
      response: { status: 201, schema: StatusPageOut },
      errors: [409],
      summary: "Create a status page",
      description: SHAPE,
    },
    async (c, { body, reply }) => reply(withVersion(c, await createStatusPage({ ctx: verbContext(c), input: body })), 201),
  );
  route(
    app,
    {
      method: "get",
      path: ONE,
      tag: "status-pages",
      scope: getStatusPage.scope,
      params,
      response: { schema: StatusPageOut },
      summary: "One status page",
      description: "The ETag is the page's version.",
    },
    async (c, { params: p, reply }) => reply(withVersion(c, await getStatusPage({ ctx: verbContext(c), input: { id: p.page_id } }))),
  );
  route(
    app,
    {
      method: "patch",
      path: ONE,
      tag: "status-pages",
      scope: patchStatusPage.scope,
      params,
      body: StatusPagePatchBody,
      response: { schema: StatusPageOut },
      errors: [409, 412],
      summary: "Change a status page",
      description: `Only the fields given change; \`sections\`, when given, replaces every section and item. With \`If-Match\` (the ETag of GET) a page changed since is a 412. ${SHAPE}`,
    },
    async (c, { params: p, body, reply }) =>
      reply(
        withVersion(
          c,
          await patchStatusPage({ ctx: verbContext(c), input: { id: p.page_id, body, ifMatch: parseIfMatch(c.req.header("if-match")) } }),
        ),
      ),
  );
  route(
    app,
    {
      method: "delete",
      path: ONE,
      tag: "status-pages",
      scope: deleteStatusPage.scope,
      params,
      response: { status: 204, description: "Deleted" },
      errors: [412],
      summary: "Delete a status page",
      description: "With `If-Match` a page changed since is a 412.",
    },
    async (c, { params: p }) => {
      await deleteStatusPage({ ctx: verbContext(c), input: { id: p.page_id, ifMatch: parseIfMatch(c.req.header("if-match")) } });
      return c.body(null, 204);
    },
  );
}
