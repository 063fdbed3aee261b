// Static mounts of uploaded files (spec 4.6: outside /api and outside the OpenAPI document): GET
// /uploads/<kind>/<name>, /branding/<name> and /favicon.ico, from the `uploads` table. /user-icons is
// served from the avatar store by functions/routes/account/avatar-routes.ts.
// Raster images are shown inline; anything else (SVG above all) only as a sandboxed download.
import type { Context, Hono } from "hono";
import { ApiError } from "../../shared/errors.ts";
import { type IconSize, MANIFEST_BACKGROUND } from "../../shared/verbs/branding/manifest.ts";
import { isRasterImage } from "../../shared/verbs/uploads/image-kinds.ts";
import { readUpload } from "../../shared/verbs/uploads/read-upload.ts";
import type { AppEnv } from "../deps.ts";

async function serve(c: Context<AppEnv>, kind: string, name: string): Promise<Response> {
  const file = await readUpload({ db: c.get("db"), kind, name });
  const headers: Record<string, string> = {
    "Content-Type": file.content_type,
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "public, max-age=3600",
    ETag: `"${file.sha256}"`,
  };
  if (!isRasterImage(file.content_type)) {
    headers["Content-Disposition"] = "attachment";
    headers["Content-Security-Policy"] = "sandbox";
  }
  const tags = (c.req.header("if-none-match") ?? "").split(",").map((t) => t.trim().replace(/^W\//, ""));
  if (tags.includes(headers.ETag!) || tags.includes("*")) return c.body(null, 304, headers);
  return c.body(file.bytes as Uint8Array<ArrayBuffer>, 200, headers);
}

// The PWA icons drawn from the uploaded favicon, per favicon hash and size: drawn once, not per request.
const drawn = new Map<string, Promise<Uint8Array>>();

/** /branding/icon-192.png and -512.png: the PNG favicon centred in a maskable square (Node: sharp). */
async function faviconIcon(c: Context<AppEnv>, size: IconSize): Promise<Response> {
  const images = c.get("deps").images;
  const missing = () => ApiError.notFound("Icon", c.req.path);
  const file = await readUpload({ db: c.get("db"), kind: "branding", name: "favicon" }).catch((e: unknown) => {
    throw e instanceof ApiError && e.status === 404 ? missing() : e;
  });
  if (!images || file.content_type !== "image/png") throw missing();
  const key = `${file.sha256}:${size}`;
  let icon = drawn.get(key);
  if (!icon) {
    if (drawn.size >= 8) drawn.clear();
    icon = images.squareIcon(file.bytes, { size, inner: Math.floor(size * 0.56), background: MANIFEST_BACKGROUND });
    drawn.set(key, icon);
    icon.catch(() => drawn.delete(key));
  }
  // A favicon that sniffs as PNG but does not decode has no icon: the manifest's other entries remain.
  const bytes = await icon.catch(() => {
    throw missing();
  });
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
    "Content-Type": "image/png",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "public, max-age=3600",
    ETag: `"${file.sha256}-${size}"`,
  });
}

export function staticUploadRoutes(app: Hono<AppEnv>): void {
  app.get("/uploads/:kind/:name", (c) => serve(c, c.req.param("kind"), c.req.param("name")));
  // Before /branding/:name, which would look these names up among the uploads.
  app.get("/branding/icon-192.png", (c) => faviconIcon(c, 192));
  app.get("/branding/icon-512.png", (c) => faviconIcon(c, 512));
  app.get("/branding/:name", (c) => serve(c, "branding", c.req.param("name")));
  app.get("/favicon.ico", (c) =>
    serve(c, "branding", "favicon").catch((e: unknown) => {
      throw e instanceof ApiError && e.status === 404 ? ApiError.notFound("Favicon", "/favicon.ico") : e;
    }),
  );
}
