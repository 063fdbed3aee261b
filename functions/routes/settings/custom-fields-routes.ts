// [settings] /custom-fields, /custom-fields/{custom_field_id}: the custom field definitions of the
// inventory kinds (docs/custom-fields.md). Everyone who reads the inventory lists them; administrators
// write them. Deleting one whose values some objects hold takes the confirmation headers.
import type { Hono } from "hono";
import {
  CustomField,
  CustomFieldCreate,
  CustomFieldDeleted,
  CustomFieldListQuery,
  CustomFieldPatch,
} from "../../../shared/schemas/custom-fields.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { CONFIRMATION_HEADER } from "../../../shared/verbs/confirm/confirm.ts";
import { customFieldVerbs } from "../../../shared/verbs/custom-fields/def.ts";
import { REMOVE_CUSTOM_FIELD, removeCustomField } from "../../../shared/verbs/custom-fields/remove-definition.ts";
import { parseIfMatch } from "../../../shared/verbs/resources/if-match.ts";
import { confirmationDoc, confirmed } from "../../confirmation.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { resourceRoutes } from "../inventory/resource-routes.ts";

const basePath = "/api/v1/custom-fields";

export function customFieldRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "delete",
      path: `${basePath}/:custom_field_id`,
      tag: "settings",
      summary: "Delete a custom field and its values",
      scope: removeCustomField.scope,
      params: IdParam("custom_field_id"),
      description: `Removes the field's value from every object of its kinds. While any object holds a value this is high-impact: ${confirmationDoc(REMOVE_CUSTOM_FIELD)} A field no object uses is deleted without them. If-Match honoured.`,
      response: { schema: CustomFieldDeleted },
      errors: [412, 428],
    },
    async (c, { params, reply }) => {
      const input = { id: params.custom_field_id, ifMatch: parseIfMatch(c.req.header("if-match")) };
      if (c.req.header(CONFIRMATION_HEADER) !== undefined)
        return confirmed(c, REMOVE_CUSTOM_FIELD, reply, (ctx) => removeCustomField({ ctx, input: { ...input, confirmed: true } }));
      return reply(await removeCustomField({ ctx: verbContext(c), input: { ...input, confirmed: false } }));
    },
  );
  resourceRoutes(app, {
    verbs: customFieldVerbs,
    tag: "settings",
    basePath,
    idParam: "custom_field_id",
    noun: ["custom field", "custom fields"],
    item: CustomField,
    query: CustomFieldListQuery,
    create: CustomFieldCreate,
    patch: CustomFieldPatch,
    delete: false,
    writeDescription:
      "name (a slug) and type are set on create and never change. Selections need choices; a reference names reference_kind; regex applies to text, min_value/max_value to numbers, min_length/max_length to text and URLs; the default must be a value the field takes. Taking a kind out of `kinds` removes the field's values from that kind's objects. A required field may be added to a kind that has objects: they are asked for it on their next write that gives custom fields (docs/custom-fields.md).",
  });
}
