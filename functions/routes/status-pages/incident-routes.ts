// [status-pages] /status-pages/{page_id}/incidents*: a status page's incidents for administrators
// (docs/adr/0456-status-page-incidents.md): drafts and published ones, their timeline, publication.
import type { Context, Hono } from "hono";
import { IdParam } from "../../../shared/schemas/fields.ts";
import {
  IncidentCreateBody,
  IncidentList,
  IncidentListQuery,
  IncidentOut,
  IncidentPatchBody,
  IncidentUpdateBody,
} from "../../../shared/schemas/status-page-incidents.ts";
import { parseIfMatch } from "../../../shared/verbs/resources/if-match.ts";
import { addIncidentUpdate, publishIncident } from "../../../shared/verbs/status-pages/incidents/incident-timeline.ts";
import {
  createIncident,
  deleteIncident,
  getIncident,
  listIncidents,
  patchIncident,
} from "../../../shared/verbs/status-pages/incidents/incidents.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { withVersion } from "../updated-at-etag.ts";
import { STATUS_PAGES_BASE } from "./page-routes.ts";

const LIST = `${STATUS_PAGES_BASE}/:page_id/incidents`;
const ONE = `${LIST}/:incident_id`;
const pageParams = IdParam("page_id");
const params = IdParam("page_id", "incident_id");
const ifMatch = (c: Context<AppEnv>) => parseIfMatch(c.req.header("if-match"));

const SHAPE =
  "`title`, `status` (investigating, identified, monitoring, resolved), `impact` (none, minor, major, critical), `affected` " +
  '([{kind: "monitor", monitor_id} | {kind: "service", service_id} | {kind: "tag", tag}]: what the page\'s items point at; each must be on the page when written, a 422 naming `affected[i]` otherwise; ' +
  "an item later taken off the page is no longer shown). A draft (`published: false`) is never public.";

export function statusPageIncidentRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: LIST,
      tag: "status-pages",
      scope: listIncidents.scope,
      params: pageParams,
      query: IncidentListQuery,
      response: { schema: IncidentList },
      summary: "List a status page's incidents",
      description:
        "The list envelope, drafts included; sort created_at, id, published_at, title; `q` over the title; `state` draft, open (unresolved) or resolved.",
    },
    async (c, { params: p, query, reply }) => reply(await listIncidents({ ctx: verbContext(c), input: { pageId: p.page_id, query } })),
  );
  route(
    app,
    {
      method: "post",
      path: LIST,
      tag: "status-pages",
      scope: createIncident.scope,
      params: pageParams,
      body: IncidentCreateBody,
      response: { status: 201, schema: IncidentOut },
      summary: "Open an incident",
      description: `\`body\` is the first timeline entry (Markdown, rendered and sanitised when shown). A draft unless \`publish: true\`. ${SHAPE}`,
    },
    async (c, { params: p, body, reply }) =>
      reply(withVersion(c, await createIncident({ ctx: verbContext(c), input: { pageId: p.page_id, body } })), 201),
  );
  route(
    app,
    {
      method: "get",
      path: ONE,
      tag: "status-pages",
      scope: getIncident.scope,
      params,
      response: { schema: IncidentOut },
      summary: "One incident with its timeline",
      description: "The ETag is the incident's version. Each update carries its Markdown `body` and the sanitised `html` the public sees.",
    },
    async (c, { params: p, reply }) =>
      reply(withVersion(c, await getIncident({ ctx: verbContext(c), input: { pageId: p.page_id, id: p.incident_id } }))),
  );
  route(
    app,
    {
      method: "patch",
      path: ONE,
      tag: "status-pages",
      scope: patchIncident.scope,
      params,
      body: IncidentPatchBody,
      response: { schema: IncidentOut },
      errors: [412],
      summary: "Change an incident's title, impact or affected items",
      description: `Only the fields given change; the status changes through an update. With \`If-Match\` an incident changed since is a 412. ${SHAPE}`,
    },
    async (c, { params: p, body, reply }) =>
      reply(
        withVersion(
          c,
          await patchIncident({ ctx: verbContext(c), input: { pageId: p.page_id, id: p.incident_id, body, ifMatch: ifMatch(c) } }),
        ),
      ),
  );
  route(
    app,
    {
      method: "delete",
      path: ONE,
      tag: "status-pages",
      scope: deleteIncident.scope,
      params,
      response: { status: 204, description: "Deleted" },
      errors: [412],
      summary: "Delete an incident",
      description: "Removes it and its timeline, published or not (audited). With `If-Match` an incident changed since is a 412.",
    },
    async (c, { params: p }) => {
      await deleteIncident({ ctx: verbContext(c), input: { pageId: p.page_id, id: p.incident_id, ifMatch: ifMatch(c) } });
      return c.body(null, 204);
    },
  );
  route(
    app,
    {
      method: "post",
      path: `${ONE}/updates`,
      tag: "status-pages",
      scope: addIncidentUpdate.scope,
      params,
      body: IncidentUpdateBody,
      response: { status: 201, schema: IncidentOut },
      errors: [409, 412],
      summary: "Add a timeline entry",
      description:
        "`body` (Markdown) and optionally a new `status`; `resolved` sets `resolved_at`. A resolved incident takes further notes but is not reopened (a 409: open a new incident). " +
        "Answers the incident with its timeline. With `If-Match` an incident changed since is a 412.",
    },
    async (c, { params: p, body, reply }) =>
      reply(
        withVersion(
          c,
          await addIncidentUpdate({ ctx: verbContext(c), input: { pageId: p.page_id, id: p.incident_id, body, ifMatch: ifMatch(c) } }),
        ),
        201,
      ),
  );
  route(
    app,
    {
      method: "post",
      path: `${ONE}/publish`,
      tag: "status-pages",
      scope: publishIncident.scope,
      params,
      response: { schema: IncidentOut },
      errors: [409, 412],
      summary: "Publish a draft incident",
      description:
        "The operator's confirmation: the incident and its timeline become public (on a published page). Already published: a 409. With `If-Match` an incident changed since is a 412.",
    },
    async (c, { params: p, reply }) =>
      reply(
        withVersion(
          c,
          await publishIncident({ ctx: verbContext(c), input: { pageId: p.page_id, id: p.incident_id, ifMatch: ifMatch(c) } }),
        ),
      ),
  );
}
