// POST /branding/upload-login-logo, /branding/upload-login-bg and DELETE /branding/{asset_type}. The
// files are checked by content with the upload rules of shared/verbs/uploads (type sniffed from the
// bytes, never the name; SVG refused since it can carry script) and stored as kind "branding", which the
// static mount serves at /branding/<name>.
//
// The login background is stored as uploaded, not resized: shared/ also runs on workerd, where no
// native image library (sharp) loads, and no dependency here decodes images. Its header is read instead,
// so only a readable PNG or JPEG is accepted, and its dimensions go to the audit entry.
import { and, eq } from "drizzle-orm";
import { uploads } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { BrandingAssetType } from "../../schemas/branding.ts";
import { sniffImageType } from "../uploads/image-type.ts";
import { checkSize, storeUpload } from "../uploads/store-upload.ts";
import { defineVerb, type VerbScope } from "../verb.ts";
import { assetNameFilter, type BrandingConfig, readBrandingConfig } from "./config.ts";
import { imageSize, type ImageSize } from "./image-size.ts";
import { BRANDING_WRITE_SCOPE } from "./settings.ts";
import type { ImageResizer } from "../../images/resizer.ts";

export const LOGIN_LOGO_MAX_BYTES = 2 * 1024 * 1024;
export const LOGIN_BG_MAX_BYTES = 5 * 1024 * 1024;
/** A login background is scaled down to fit a full-HD screen: the login page never needs more. */
export const LOGIN_BG_MAX = { width: 1920, height: 1080 } as const;

type FileInput = { bytes: Uint8Array };
type Prepared = { ext: "png" | "jpg"; contentType: string; size: ImageSize; bytes: Uint8Array };

const notPngOrJpeg = () =>
  ApiError.validation([
    {
      loc: ["body", "file"],
      msg: "The file is not a readable PNG or JPEG image (told by its content; SVG is not accepted).",
      type: "image_type",
    },
  ]);

function checkedImage(bytes: Uint8Array, max: number, what: string): Prepared {
  checkSize(bytes, max, what);
  const type = sniffImageType(bytes);
  if (!type || (type.ext !== "png" && type.ext !== "jpg")) throw notPngOrJpeg();
  const size = imageSize(bytes, type.ext);
  if (!size) throw notPngOrJpeg();
  return { ext: type.ext, contentType: type.contentType, size, bytes };
}

/** The background scaled down to LOGIN_BG_MAX where a resizer exists (Node); as uploaded on the edge. */
async function fittedBackground(bytes: Uint8Array, resizer: ImageResizer | undefined): Promise<Prepared> {
  const p = checkedImage(bytes, LOGIN_BG_MAX_BYTES, "login background");
  if (!resizer || (p.size.width <= LOGIN_BG_MAX.width && p.size.height <= LOGIN_BG_MAX.height)) return p;
  const out = await resizer.fitWithin(bytes, { maxWidth: LOGIN_BG_MAX.width, maxHeight: LOGIN_BG_MAX.height, format: p.ext }).catch(() => {
    throw notPngOrJpeg();
  });
  return { ...p, bytes: out.bytes, size: { width: out.width, height: out.height } };
}

async function removeAsset(s: VerbScope, type: BrandingAssetType): Promise<string[]> {
  const gone = await s.tx
    .delete(uploads)
    .where(and(eq(uploads.kind, "branding"), assetNameFilter(type)))
    .returning({ name: uploads.name });
  return gone.map((g) => g.name);
}

/** Replaces the asset of `type` (whatever its extension was) with the new file. */
async function replaceAsset(s: VerbScope, type: BrandingAssetType, p: Prepared): Promise<BrandingConfig> {
  await removeAsset(s, type);
  const name = `${type}.${p.ext}`;
  await storeUpload(s, { kind: "branding", name, contentType: p.contentType, bytes: p.bytes });
  s.audit({
    action: "branding.asset.upload",
    category: "settings",
    entity_type: "branding",
    entity_id: type,
    diff: { after: { name, ...p.size } },
  });
  return readBrandingConfig(s.tx);
}

export const uploadLoginLogo = defineVerb<FileInput, BrandingConfig, Prepared>(
  { scope: BRANDING_WRITE_SCOPE, prepare: async (_ctx, { bytes }) => checkedImage(bytes, LOGIN_LOGO_MAX_BYTES, "login logo") },
  async (s, _input, p) => replaceAsset(s, "login-logo", p),
);

export const uploadLoginBg = defineVerb<FileInput & { resizer?: ImageResizer | undefined }, BrandingConfig, Prepared>(
  // Resized in prepare: the CPU work happens before the transaction opens.
  { scope: BRANDING_WRITE_SCOPE, prepare: async (_ctx, { bytes, resizer }) => fittedBackground(bytes, resizer) },
  async (s, _input, p) => replaceAsset(s, "login-bg", p),
);

/** Removes one asset; removing an absent one changes nothing and answers the config all the same. */
export const deleteBrandingAsset = defineVerb<{ asset_type: BrandingAssetType }, BrandingConfig>(
  { scope: BRANDING_WRITE_SCOPE },
  async (s, { asset_type }) => {
    const gone = await removeAsset(s, asset_type);
    if (gone.length)
      s.audit({
        action: "branding.asset.delete",
        category: "settings",
        entity_type: "branding",
        entity_id: asset_type,
        diff: { before: { names: gone } },
      });
    return readBrandingConfig(s.tx);
  },
);
