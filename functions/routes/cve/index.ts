// The cve group (spec/catalogue.tsv, group cve; docs/cve.md): the feed's status and sync, search, one
// asset's assessment, and (ours) the operator's identity of an asset.
import type { Hono } from "hono";
import { assessEntity, cveStatus, searchCves } from "../../../shared/verbs/cve/reads.ts";
import { deleteIdentity, getIdentity, putIdentity } from "../../../shared/verbs/cve/identity-verbs.ts";
import { startCveSync } from "../../../shared/verbs/cve/sync-job.ts";
import { ApiError } from "../../../shared/errors.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import {
  Assessment,
  EntityParams,
  IdentityParams,
  IdentityPut,
  IdentityView,
  SearchPage,
  SearchQuery,
  Status,
  SyncStarted,
} from "../../../shared/schemas/cve.ts";

export function cveRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: "/api/v1/cve/sync",
      tag: "cve",
      scope: startCveSync.scope,
      summary: "Start a CVE feed sync now, in the background",
      description:
        "Reads every source of the cve_feed_sources setting (file paths, http(s) URLs streamed through the outbound policy; NVD CVE API 2.0 JSON, gzip or not; a #sha256= suffix pins a source's bytes) as the cve_sync job does. The records are staged and applied in one transaction only once every source parsed to its end: a failed sync changes no CVE. Answers 202 once the job's lock is held and its run recorded; GET /cve/status and GET /admin/jobs follow it. 409 when a sync is already running or no source is configured; 503 where this process cannot run it.",
      response: { status: 202, schema: SyncStarted },
      errors: [409, 503],
    },
    async (c, { reply }) => {
      const deps = c.get("deps");
      if (!deps.cveFeed) throw new ApiError("SERVICE_NOT_READY", "The CVE sync runs in the Node server; this process cannot run it.");
      const started = await startCveSync({
        ctx: verbContext(c),
        input: { database: deps.database, outbound: deps.outbound, cveFeed: deps.cveFeed, logger: deps.logger, lifecycle: deps.lifecycle },
      });
      return reply({ status: "sync_started", ...started });
    },
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/cve/status",
      tag: "cve",
      scope: cveStatus.scope,
      summary: "The CVE feed's state: the reference's older keys and the FeedState block",
      description:
        "state: unavailable (never synced or empty), incomplete (the last attempt failed, or the last sync did not read every source), stale (last success older than 7 days), ready. sources and plain_http say how the configured sources are read (a plain HTTP source is flagged; a #sha256= pin guards a source's bytes).",
      response: { schema: Status },
    },
    async (c, { reply }) => reply(await cveStatus({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/cve/search",
      tag: "cve",
      scope: searchCves.scope,
      summary: "Search the imported CVEs by text (id and summary), vendor, product and severity",
      description:
        "Newest published first. q: an id, the beginning of one (CVE-2021-4), or text in the summary. vendor and product are compared as CPE names (lower case, spaces as _); each item shows the first criterion that names them (or the CVE's first vulnerable one).",
      query: SearchQuery,
      response: { schema: SearchPage },
    },
    async (c, { query, reply }) => reply(await searchCves({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/cve/entity/:entity_type/:entity_id",
      tag: "cve",
      scope: assessEntity.scope,
      summary: "Assess one asset (hardware, compute_unit, service) against the feed",
      description:
        "The reference's AssessmentResult. Another entity_type answers 200 with state unassessed, reason identity_missing; a missing asset of a supported type is 404. Findings are the CVEs that apply or may apply (evidence with version_result unknown says what could not be decided).",
      params: EntityParams,
      response: { schema: Assessment },
    },
    async (c, { params, reply }) => reply(await assessEntity({ ctx: verbContext(c), input: params })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/cve/identity/:entity_type/:entity_id",
      tag: "cve",
      scope: getIdentity.scope,
      summary: "The identity (CPE vendor, product, version) an asset is assessed under (ours)",
      params: IdentityParams,
      response: { schema: IdentityView },
    },
    async (c, { params, reply }) => reply(await getIdentity({ ctx: verbContext(c), input: params })),
  );

  route(
    app,
    {
      method: "put",
      path: "/api/v1/cve/identity/:entity_type/:entity_id",
      tag: "cve",
      scope: putIdentity.scope,
      summary: "Set the operator's identity of an asset, which wins over the inventory's (ours)",
      description: "vendor and product are stored as CPE names (lower case, spaces as _). Each change bumps the revision.",
      params: IdentityParams,
      body: IdentityPut,
      response: { schema: IdentityView },
    },
    async (c, { params, body, reply }) =>
      reply(
        await putIdentity({
          ctx: verbContext(c),
          input: { ...params, vendor: body.vendor, product: body.product, version: body.version ?? null },
        }),
      ),
  );

  route(
    app,
    {
      method: "delete",
      path: "/api/v1/cve/identity/:entity_type/:entity_id",
      tag: "cve",
      scope: deleteIdentity.scope,
      summary: "Remove the operator's identity: the inventory's applies again (ours)",
      params: IdentityParams,
      response: { status: 204, description: "Removed (or there was none)" },
    },
    async (c, { params }) => {
      await deleteIdentity({ ctx: verbContext(c), input: params });
      return c.body(null, 204);
    },
  );
}
