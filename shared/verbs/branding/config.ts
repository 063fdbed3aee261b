// The branding settings (one app_settings row, "branding") and the paths of the uploaded assets, read from
// the uploads table so a path is only ever answered for a file that is really served.
import { and, eq, like, or } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "../../db/database.ts";
import { appSettings, uploads } from "../../db/schema/index.ts";
import { AccentColours, AppName, type BrandingAssetType, HexColour } from "../../schemas/branding.ts";

export const BRANDING_KEY = "branding";

export interface BrandingSettings {
  app_name: string;
  primary_color: string;
  accent_colors: string[];
}

export const BRANDING_DEFAULTS: BrandingSettings = {
  app_name: "Circuit Breaker",
  primary_color: "#fe8019",
  accent_colors: ["#fabd2f", "#b8bb26"],
};

export interface BrandingConfig extends BrandingSettings {
  favicon_path: string | null;
  login_logo_path: string | null;
  login_bg_path: string | null;
}

export interface BrandingAsset {
  name: string;
  content_type: string;
  sha256: string;
}

/** Which `uploads` names (kind "branding") hold an asset type: the favicon has a fixed name, the others carry their extension. */
export function assetNameFilter(type: BrandingAssetType) {
  return type === "favicon" ? eq(uploads.name, "favicon") : like(uploads.name, `${type}.%`);
}

export async function readBrandingSettings(db: Db): Promise<BrandingSettings> {
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, BRANDING_KEY));
  const stored = (row?.value ?? {}) as Record<string, unknown>;
  // A stored value that no longer passes its rule (edited by hand, an older build) reads as the default.
  const valid = <T>(schema: v.GenericSchema<unknown, T>, value: unknown, fallback: T): T => {
    const r = v.safeParse(schema, value);
    return r.success ? r.output : fallback;
  };
  return {
    app_name: valid(AppName, stored.app_name, BRANDING_DEFAULTS.app_name),
    primary_color: valid(HexColour, stored.primary_color, BRANDING_DEFAULTS.primary_color),
    accent_colors: valid(AccentColours, stored.accent_colors, BRANDING_DEFAULTS.accent_colors),
  };
}

export async function readBrandingAssets(db: Db): Promise<Partial<Record<BrandingAssetType, BrandingAsset>>> {
  const rows = await db
    .select({ name: uploads.name, content_type: uploads.content_type, sha256: uploads.sha256 })
    .from(uploads)
    .where(and(eq(uploads.kind, "branding"), or(assetNameFilter("favicon"), assetNameFilter("login-logo"), assetNameFilter("login-bg"))));
  const out: Partial<Record<BrandingAssetType, BrandingAsset>> = {};
  for (const r of rows) out[r.name === "favicon" ? "favicon" : (r.name.split(".")[0] as BrandingAssetType)] = r;
  return out;
}

/** The BrandingConfig every branding write answers. */
export async function readBrandingConfig(db: Db): Promise<BrandingConfig> {
  const [settings, assets] = await Promise.all([readBrandingSettings(db), readBrandingAssets(db)]);
  return {
    app_name: settings.app_name,
    favicon_path: assets.favicon ? "/favicon.ico" : null,
    login_logo_path: assets["login-logo"] ? `/branding/${assets["login-logo"].name}` : null,
    login_bg_path: assets["login-bg"] ? `/branding/${assets["login-bg"].name}` : null,
    primary_color: settings.primary_color,
    accent_colors: settings.accent_colors,
  };
}
