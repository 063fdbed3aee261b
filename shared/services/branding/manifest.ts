// GET /branding/manifest.json (public): the PWA manifest built from the branding settings and the
// uploaded assets. Answers its bytes and an ETag (the SHA-256 of the bytes) so browsers revalidate cheaply.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "../../auth/encoding.ts";
import { defineRead } from "../verb.ts";
import { readBrandingAssets, readBrandingSettings } from "./config.ts";

export const MANIFEST_BACKGROUND = "#282828";

export const brandingManifest = defineRead({ scope: "public" }, async (ctx): Promise<{ body: string; etag: string }> => {
  const [settings, assets] = await Promise.all([readBrandingSettings(ctx.db), readBrandingAssets(ctx.db)]);
  const icons = [];
  if (assets.favicon) icons.push({ src: "/favicon.ico", sizes: "any", type: assets.favicon.content_type });
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
});
