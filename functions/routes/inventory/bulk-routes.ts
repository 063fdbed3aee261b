// POST {base}/bulk-delete, {base}/bulk-update and {base}/bulk-tags of an inventory resource: not in the catalogue (the console's
// bulk actions, docs/adr/0260-all-or-nothing-through-the-resources-own-verbs.md), one transaction each, all or nothing.
// Bulk delete is high-impact (spec 5.6): it runs behind the confirmation headers.
import type { Hono } from "hono";
import type * as v from "valibot";
import { BulkDeleteBody, BulkDeleted, BulkTagBody, BulkTagged, BulkUpdated, bulkUpdateBody } from "../../../shared/schemas/bulk.ts";
import { bulkUpdateVerb, bulkVerbs } from "../../../shared/verbs/resources/bulk-verbs.ts";
import type { ResourceVerbs } from "../../../shared/verbs/resources/resource-verbs.ts";
import { confirmationDoc, confirmed } from "../../confirmation.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import type { Tag } from "../../openapi/tags.ts";

export interface BulkRouteOptions<Api, Q, V> {
  verbs: ResourceVerbs<Api, Q, V, number>;
  tag: Tag;
  basePath: string;
  noun: [string, string];
  /** Also POST {base}/bulk-tags (the resource carries tags). */
  tags: boolean;
  /** Also POST {base}/bulk-update, its `set` validated by the resource's PATCH schema. */
  patch?: v.GenericSchema<unknown, Record<string, unknown>>;
}

const REFUSAL =
  "When any selected record cannot be changed (unknown id, dependents, a concurrent change) nothing is: 422 whose `refused` lists each id with its reason (not_found, conflict, invalid) and detail.";

/** The confirmation action of a resource's bulk delete: "bulk-delete-hardware", "bulk-delete-vlans". */
export const bulkDeleteAction = (basePath: string): string => `bulk-delete-${basePath.split("/").pop()}`;

export function bulkRoutes<Api, Q, V>(app: Hono<AppEnv>, o: BulkRouteOptions<Api, Q, V>): void {
  const bulk = bulkVerbs(o.verbs);
  const spec = { action: bulkDeleteAction(o.basePath) };
  route(
    app,
    {
      method: "post",
      path: `${o.basePath}/bulk-delete`,
      tag: o.tag,
      scope: bulk.remove.scope,
      body: BulkDeleteBody,
      summary: `Delete several ${o.noun[1]} at once (all or none)`,
      description: `${confirmationDoc(spec)} Each ${o.noun[0]} is deleted as DELETE on it would, with its own audit entry. ${REFUSAL}`,
      response: { schema: BulkDeleted },
      errors: [409, 428],
    },
    async (c, { body, reply }) => confirmed(c, spec, reply, (ctx) => bulk.remove({ ctx, input: body })),
  );
  if (o.patch) {
    const update = bulkUpdateVerb(o.verbs);
    route(
      app,
      {
        method: "post",
        path: `${o.basePath}/bulk-update`,
        tag: o.tag,
        scope: update.scope,
        body: bulkUpdateBody(o.patch),
        summary: `Set the same fields on several ${o.noun[1]} at once (all or none)`,
        description: `\`set\` is a PATCH body of a ${o.noun[0]} (the same fields and rules; at least one field), written to each selected one as PATCH on it would (version bumped, its own audit entry). ${REFUSAL}`,
        response: { schema: BulkUpdated },
      },
      async (c, { body, reply }) => reply(await update({ ctx: verbContext(c), input: { ids: body.ids, values: body.set as V } })),
    );
  }
  if (!o.tags) return;
  route(
    app,
    {
      method: "post",
      path: `${o.basePath}/bulk-tags`,
      tag: o.tag,
      scope: bulk.retag.scope,
      body: BulkTagBody,
      summary: `Add or remove tags on several ${o.noun[1]} at once (all or none)`,
      description: `Each ${o.noun[0]} whose tags change is written as PATCH on it would (version bumped, its own audit entry); those that already have them as asked are \`unchanged\`. ${REFUSAL}`,
      response: { schema: BulkTagged },
    },
    async (c, { body, reply }) => reply(await bulk.retag({ ctx: verbContext(c), input: body })),
  );
}
