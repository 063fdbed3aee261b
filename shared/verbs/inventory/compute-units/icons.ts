// Compute unit icons: a built-in set shipped as data (shared/icons/compute-icons.json, drawn by the
// frontend) plus images uploaded into `uploads` (kind "compute-icon", name = slug). Uploads are checked
// by their bytes (PNG, JPEG, GIF, WebP; never SVG, which can carry script), capped at 256 KiB, and served
// by the static /uploads mount.
import { and, eq, sql } from "drizzle-orm";
import builtinIcons from "../../../icons/compute-icons.json" with { type: "json" };
import type { Db } from "../../../db/database.ts";
import { computeUnits, uploads } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import { ICON_SLUG } from "../../../schemas/compute-units.ts";
import { sniffImageType } from "../../uploads/image-type.ts";
import { checkSize, storeUpload, uploadUrl } from "../../uploads/store-upload.ts";
import { defineRead, defineVerb } from "../../verb.ts";

export const ICON_KIND = "compute-icon";
export const ICON_MAX_BYTES = 256 * 1024;

const BUILTIN = new Map(builtinIcons.map((i) => [i.slug, i]));

export async function iconExists(db: Db, slug: string): Promise<boolean> {
  if (BUILTIN.has(slug)) return true;
  const [row] = await db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.kind, ICON_KIND), eq(uploads.name, slug)));
  return row !== undefined;
}

export const listComputeIcons = defineRead({ scope: "read:compute" }, async (ctx, _input: void) => {
  const uploaded = await ctx.db
    .select({ name: uploads.name, content_type: uploads.content_type, size: uploads.size })
    .from(uploads)
    .where(eq(uploads.kind, ICON_KIND))
    .orderBy(uploads.name);
  return [
    ...builtinIcons.map((i) => ({ ...i, builtin: true, content_type: null, size: null })),
    ...uploaded.map((u) => ({
      slug: u.name,
      label: u.name,
      group: "Uploaded",
      path: uploadUrl(ICON_KIND, u.name),
      builtin: false,
      content_type: u.content_type,
      size: u.size,
    })),
  ];
});

/** A file name or label made into a slug ("My Icon.png" -> "my-icon"); "" when nothing is left. */
export function slugify(text: string): string {
  return text
    .replace(/\.[A-Za-z0-9]{1,5}$/, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 64)
    .replace(/^-+|-+$/g, "");
}

const slugIssue = (msg: string) => ApiError.validation([{ loc: ["body", "slug"], msg, type: "value_error" }]);

function chooseSlug(input: { slug?: string | undefined; name?: string | undefined; fileName?: string | undefined }): string {
  if (input.slug !== undefined) {
    const slug = input.slug.trim();
    if (!ICON_SLUG.test(slug)) throw slugIssue("The slug must be lowercase letters, digits and dashes (at most 64).");
    return slug;
  }
  const slug = slugify(input.name ?? input.fileName ?? "");
  if (!slug) throw slugIssue("Give the icon a slug (or a file name with letters or digits in it).");
  return slug;
}

export interface IconUpload {
  bytes: Uint8Array;
  slug?: string | undefined;
  name?: string | undefined;
  fileName?: string | undefined;
}

export const uploadComputeIcon = defineVerb(
  {
    scope: "write:compute",
    // The bytes and the slug are judged before the transaction: a refused file costs no database work.
    prepare: async (_ctx, input: IconUpload) => {
      checkSize(input.bytes, ICON_MAX_BYTES, "icon");
      const type = sniffImageType(input.bytes);
      if (!type)
        throw ApiError.validation([
          { loc: ["body", "file"], msg: "The file is not a PNG, JPEG, GIF or WebP image (SVG is not accepted).", type: "image_type" },
        ]);
      const slug = chooseSlug(input);
      if (BUILTIN.has(slug)) throw ApiError.conflict(`"${slug}" is a built-in compute icon; upload under another slug.`);
      return { slug, contentType: type.contentType };
    },
  },
  async (s, input, { slug, contentType }) => {
    if (await iconExists(s.tx, slug))
      throw ApiError.conflict(`A compute icon "${slug}" was already uploaded; delete it first or pick another slug.`);
    const stored = await storeUpload(s, { kind: ICON_KIND, name: slug, contentType, bytes: input.bytes });
    s.emit("inventory", { entity: "compute_icon", action: "create", slug });
    return { slug, label: slug, group: "Uploaded", path: stored.url, builtin: false, content_type: stored.content_type, size: stored.size };
  },
);

/** Removes an uploaded icon; compute units that showed it fall back to no icon (icon_slug null). */
export const deleteComputeIcon = defineVerb(
  {
    scope: "write:compute",
    prepare: async (_ctx, { slug }: { slug: string }) => {
      if (BUILTIN.has(slug)) throw ApiError.conflict(`"${slug}" is a built-in compute icon; only uploaded icons can be deleted.`);
    },
  },
  async (s, { slug }) => {
    const [gone] = await s.tx
      .delete(uploads)
      .where(and(eq(uploads.kind, ICON_KIND), eq(uploads.name, slug)))
      .returning({ id: uploads.id, content_type: uploads.content_type, size: uploads.size, sha256: uploads.sha256 });
    if (!gone) throw ApiError.notFound("Compute icon", slug);
    const cleared = await s.tx
      .update(computeUnits)
      .set({ icon_slug: null, updated_at: s.now, version: sql`${computeUnits.version} + 1` })
      .where(eq(computeUnits.icon_slug, slug))
      .returning({ id: computeUnits.id });
    s.audit({
      action: "compute_icon.delete",
      category: "inventory",
      entity_type: "upload",
      entity_id: gone.id,
      diff: {
        before: {
          slug,
          content_type: gone.content_type,
          size: gone.size,
          sha256: gone.sha256,
          used_by_compute_units: cleared.map((c) => c.id),
        },
      },
    });
    s.emit("inventory", { entity: "compute_icon", action: "delete", slug });
    for (const c of cleared) s.emit("inventory", { entity: "compute_unit", action: "update", id: c.id });
  },
);
