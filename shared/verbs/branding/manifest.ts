// GET /branding/manifest.json (public): the PWA manifest built from the branding settings and the
// uploaded assets. Answers its bytes and an ETag (the SHA-256 of the bytes) so browsers revalidate cheaply.
// A browser offers to install the console only with 192 and 512 px PNG icons: those derived from an
// uploaded PNG favicon when this process can draw them (sharp, Node: /branding/icon-<size>.png), else the
// console's own (web/public/icons, made by scripts/app-icons.ts). Both keep their content in the maskable
// safe zone, so one entry serves as "any maskable".
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "../../auth/encoding.ts";
import { defineRead } from "../verb.ts";
import { readBrandingAssets, readBrandingSettings } from "./config.ts";

export const MANIFEST_BACKGROUND = "#282828";
export const ICON_SIZES = [192, 512] as const;
export type IconSize = (typeof ICON_SIZES)[number];

/** The favicon's icon at `size`, versioned by the favicon's hash so a new upload is fetched anew. */
export const faviconIconPath = (size: IconSize, sha256: string) => `/branding/icon-${size}.png?v=${sha256.slice(0, 16)}`;

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

export const brandingManifest = defineRead<{ drawsIcons: boolean } | undefined, { body: string; etag: string }>(
  { scope: "public" },
  async (ctx, input) => {
    const [settings, assets] = await Promise.all([readBrandingSettings(ctx.db), readBrandingAssets(ctx.db)]);
    const favicon = assets.favicon;
    const fromFavicon = input?.drawsIcons === true && favicon?.content_type === "image/png";
    const icons: ManifestIcon[] = ICON_SIZES.map((size) => ({
      src: fromFavicon ? faviconIconPath(size, favicon.sha256) : `/icons/app-${size}.png`,
      sizes: `${size}x${size}`,
      type: "image/png",
      purpose: "any maskable",
    }));
    if (favicon) icons.push({ src: "/favicon.ico", sizes: "any", type: favicon.content_type });
    const logo = assets["login-logo"];
    if (logo) icons.push({ src: `/branding/${logo.name}`, sizes: "any", type: logo.content_type });
    const manifest = {
      name: settings.app_name,
      short_name: [...settings.app_name].slice(0, 12).join("").trim(),
      icons,
      theme_color: settings.primary_color,
      background_color: MANIFEST_BACKGROUND,
      display: "standalone",
      start_url: "/",
    };
    const body = JSON.stringify(manifest);
    return { body, etag: `"${bytesToHex(sha256(new TextEncoder().encode(body)))}"` };
  },
);
