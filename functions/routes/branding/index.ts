// [branding] The deployment's name, colours and login assets (spec/catalogue.tsv, group branding). Writes are for
// administrators; the PWA manifest is public (docs/architecture.md, API contracts) and revalidated by ETag. The favicon is
// uploaded through POST /assets/branding/favicon; DELETE /branding/favicon removes it.
import type { Hono } from "hono";
import { BrandingAssetParams, BrandingConfig, BrandingExport, BrandingImport, WebManifest } from "../../../shared/schemas/branding.ts";
import {
  deleteBrandingAsset,
  LOGIN_BG_MAX_BYTES,
  LOGIN_LOGO_MAX_BYTES,
  uploadLoginBg,
  uploadLoginLogo,
} from "../../../shared/verbs/branding/assets.ts";
import { brandingManifest } from "../../../shared/verbs/branding/manifest.ts";
import { exportBranding, getBranding, importBranding } from "../../../shared/verbs/branding/settings.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { fileField, MULTIPART_DESCRIPTION } from "../content/multipart.ts";

const tag = "branding" as const;

export function brandingRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/branding",
      tag,
      scope: getBranding.scope,
      response: { schema: BrandingConfig },
      summary: "The BrandingConfig: name, colours and the paths of the uploaded favicon, login logo and background (null when none)",
    },
    async (c, { reply }) => reply(await getBranding({ ctx: verbContext(c) })),
  );
  route(
    app,
    {
      method: "get",
      path: "/api/v1/branding/export",
      tag,
      scope: exportBranding.scope,
      response: { schema: BrandingExport },
      summary: "The branding settings as a JSON document (name and colours; no file paths)",
    },
    async (c, { reply }) => reply(await exportBranding({ ctx: verbContext(c) })),
  );
  route(
    app,
    {
      method: "post",
      path: "/api/v1/branding/import",
      tag,
      scope: importBranding.scope,
      body: BrandingImport,
      response: { schema: BrandingConfig },
      summary: "Import a branding document (every key optional; unknown keys refused); answers the BrandingConfig",
      description: "Validated whole before anything is written (422 naming each bad field, nothing changed); file paths are not touched.",
    },
    async (c, { body, reply }) => reply(await importBranding({ ctx: verbContext(c), input: body })),
  );
  route(
    app,
    {
      method: "get",
      path: "/api/v1/branding/manifest.json",
      tag,
      auth: "public",
      response: { schema: WebManifest, contentType: "application/manifest+json" },
      summary:
        "The PWA manifest: the app name, 192 and 512 px icons (from the uploaded PNG favicon, else the console's), the theme colour (anonymous, ETag)",
    },
    async (c) => {
      const { body, etag } = await brandingManifest({ ctx: verbContext(c), input: { drawsIcons: c.get("deps").images !== undefined } });
      const headers = { "Content-Type": "application/manifest+json", ETag: etag, "Cache-Control": "public, max-age=300" };
      const tags = (c.req.header("if-none-match") ?? "").split(",").map((t) => t.trim().replace(/^W\//, ""));
      if (tags.includes(etag)) return c.body(null, 304, headers);
      return c.body(body, 200, headers);
    },
  );
  route(
    app,
    {
      method: "post",
      path: "/api/v1/branding/upload-login-logo",
      tag,
      scope: uploadLoginLogo.scope,
      errors: [413, 422],
      upload: { file: "file", description: "The login logo: PNG or JPEG." },
      response: { schema: BrandingConfig },
      summary: "Upload the login page's logo (administrators); served at /branding/login-logo.<png|jpg>",
      description: `${MULTIPART_DESCRIPTION} PNG or JPEG (SVG is refused: it can carry script), at most ${LOGIN_LOGO_MAX_BYTES} bytes (2 MiB).`,
    },
    async (c, { reply }) => reply(await uploadLoginLogo({ ctx: verbContext(c), input: { bytes: await fileField(c, "the logo") } })),
  );
  route(
    app,
    {
      method: "post",
      path: "/api/v1/branding/upload-login-bg",
      tag,
      scope: uploadLoginBg.scope,
      errors: [413, 422],
      upload: { file: "file", description: "The login background: PNG or JPEG." },
      response: { schema: BrandingConfig },
      summary: "Upload the login page's background (administrators); served at /branding/login-bg.<png|jpg>",
      description: `${MULTIPART_DESCRIPTION} PNG or JPEG with a readable header, at most ${LOGIN_BG_MAX_BYTES} bytes (5 MiB); scaled down to fit 1920×1080 (on the edge, where no image library runs, stored as uploaded).`,
    },
    async (c, { reply }) =>
      reply(
        await uploadLoginBg({ ctx: verbContext(c), input: { bytes: await fileField(c, "the background"), resizer: c.get("deps").images } }),
      ),
  );
  route(
    app,
    {
      method: "delete",
      path: "/api/v1/branding/:asset_type",
      tag,
      scope: deleteBrandingAsset.scope,
      params: BrandingAssetParams,
      response: { schema: BrandingConfig },
      summary: "Remove an uploaded asset: favicon, login-logo or login-bg (an absent one is no error)",
    },
    async (c, { params, reply }) => reply(await deleteBrandingAsset({ ctx: verbContext(c), input: params })),
  );
}
