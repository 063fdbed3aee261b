// POST /assets/user-icon (a custom icon for graph nodes: any raster image, 512 KiB) and
// POST /assets/branding/favicon (PNG or ICO, 256 KiB, replacing the one before; served at /favicon.ico).
// Types are told by the bytes, never the name; SVG is refused (it can carry script).
import { ApiError } from "../../errors.ts";
import { defineVerb } from "../verb.ts";
import { isIco } from "./image-kinds.ts";
import { type ImageType, sniffImageType } from "./image-type.ts";
import { checkSize, freshName, storeUpload } from "./store-upload.ts";

export const USER_ICON_MAX_BYTES = 512 * 1024;
export const FAVICON_MAX_BYTES = 256 * 1024;

const notAn = (what: string) =>
  ApiError.validation([
    { loc: ["body", "file"], msg: `The file is not ${what} (told by its content; SVG is not accepted).`, type: "image_type" },
  ]);

type FileInput = { bytes: Uint8Array };
type StoredAsset = { url: string; content_type: string; size: number };

export const uploadUserIcon = defineVerb<FileInput, StoredAsset, ImageType>(
  {
    // Icons decorate graph nodes, so they take the graph's write scope (editors hold it).
    scope: "write:graph",
    prepare: async (_ctx, { bytes }) => {
      checkSize(bytes, USER_ICON_MAX_BYTES, "icon");
      const type = sniffImageType(bytes);
      if (!type) throw notAn("a PNG, JPEG, GIF or WebP image");
      return type;
    },
  },
  async (s, { bytes }, type) => {
    const stored = await storeUpload(s, { kind: "user-icon", name: freshName(s, "icon", type.ext), contentType: type.contentType, bytes });
    return { url: stored.url, content_type: stored.content_type, size: stored.size };
  },
);

export const uploadFavicon = defineVerb<FileInput, StoredAsset, string>(
  {
    scope: "admin:*",
    // Answers the content type.
    prepare: async (_ctx, { bytes }) => {
      checkSize(bytes, FAVICON_MAX_BYTES, "favicon");
      const png = sniffImageType(bytes)?.ext === "png";
      if (!png && !isIco(bytes)) throw notAn("a PNG or ICO image");
      return png ? "image/png" : "image/x-icon";
    },
  },
  async (s, { bytes }, contentType) => {
    const stored = await storeUpload(s, { kind: "branding", name: "favicon", contentType, bytes, replace: true });
    return { url: "/favicon.ico", content_type: stored.content_type, size: stored.size };
  },
);
