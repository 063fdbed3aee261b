// [compute-units] /compute-units (list, create), /compute-units/{cu_id} (GET, PATCH, DELETE), the
// unit's network memberships, and its icons (built-in set + uploads, served by the static /uploads mount).
import type { Context, Hono } from "hono";
import {
  ComputeIcon,
  ComputeIcons,
  ComputeNetworks,
  ComputeUnit,
  ComputeUnitCreate,
  ComputeUnitListQuery,
  ComputeUnitPatch,
  IconSlugParam,
} from "../../../shared/schemas/compute-units.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { computeUnitVerbs } from "../../../shared/verbs/inventory/compute-units/def.ts";
import {
  deleteComputeIcon,
  ICON_KIND,
  ICON_MAX_BYTES,
  listComputeIcons,
  uploadComputeIcon,
} from "../../../shared/verbs/inventory/compute-units/icons.ts";
import { computeUnitNetworks } from "../../../shared/verbs/inventory/compute-units/networks.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { readUpload } from "../content/multipart.ts";
import { resourceRoutes } from "./resource-routes.ts";

/** The multipart form of an icon upload: the file's bytes and name, and the optional slug/name fields. */
async function iconForm(c: Context<AppEnv>) {
  const { bytes, fileName, fields } = await readUpload(c, "the icon", ["slug", "name"] as const);
  return { bytes, fileName, slug: fields.slug, name: fields.name };
}

export function computeUnitRoutes(app: Hono<AppEnv>): void {
  // Before /compute-units/:cu_id, which would otherwise take "icons" for an id.
  route(
    app,
    {
      method: "get",
      path: "/api/v1/compute-units/icons",
      tag: "compute-units",
      scope: listComputeIcons.scope,
      summary: "The icons a compute unit can show: the built-in set, then uploaded ones",
      response: { schema: ComputeIcons },
    },
    async (c, { reply }) => reply(await listComputeIcons({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/compute-units/icons/upload",
      tag: "compute-units",
      scope: uploadComputeIcon.scope,
      upload: {
        file: "file",
        description: "The icon: PNG, JPEG, GIF or WebP (by content), at most 256 KiB.",
        fields: { slug: "Optional slug (lower-case letters, digits, dashes).", name: "Optional name to derive the slug from." },
      },
      summary: "Upload a compute icon: multipart/form-data with the image in the field `file`",
      description:
        `Request body: multipart/form-data with \`file\` (the image) and optionally \`slug\` (lowercase letters, digits, dashes; ` +
        `otherwise derived from \`name\` or the file name). PNG, JPEG, GIF or WebP, told by the file's content; SVG is refused. ` +
        `At most ${ICON_MAX_BYTES} bytes (256 KiB), else 413. A slug already in use (built-in or uploaded) is 409. ` +
        `The image is served at the answer's \`path\` (/uploads/${ICON_KIND}/<slug>).`,
      response: { status: 201, schema: ComputeIcon },
      errors: [409, 413, 422],
    },
    async (c, { reply }) => reply(await uploadComputeIcon({ ctx: verbContext(c), input: await iconForm(c) })),
  );

  route(
    app,
    {
      method: "delete",
      path: "/api/v1/compute-units/icons/:slug",
      tag: "compute-units",
      scope: deleteComputeIcon.scope,
      params: IconSlugParam,
      summary: "Delete an uploaded compute icon",
      description: "Built-in icons cannot be deleted (409). Compute units that showed the icon are left without one (icon_slug null).",
      response: { status: 204, description: "Deleted" },
      errors: [409],
    },
    async (c, { params }) => {
      await deleteComputeIcon({ ctx: verbContext(c), input: { slug: params.slug } });
      return c.body(null, 204);
    },
  );

  resourceRoutes(app, {
    verbs: computeUnitVerbs,
    tag: "compute-units",
    basePath: "/api/v1/compute-units",
    idParam: "cu_id",
    noun: ["compute unit", "compute units"],
    bulk: { tags: true },
    item: ComputeUnit,
    create: ComputeUnitCreate,
    patch: ComputeUnitPatch,
    query: ComputeUnitListQuery,
    deleteDescription: "Refused (409, listing them) while services run on the unit; its network memberships are removed with it.",
  });

  route(
    app,
    {
      method: "get",
      path: "/api/v1/compute-units/:cu_id/networks",
      tag: "compute-units",
      scope: computeUnitNetworks.scope,
      params: IdParam("cu_id"),
      summary: "Networks this compute unit is a member of",
      response: { schema: ComputeNetworks },
    },
    async (c, { params, reply }) => reply(await computeUnitNetworks({ ctx: verbContext(c), input: { computeId: params.cu_id } })),
  );
}
