// Branding (spec/catalogue.tsv, group branding): the deployment's name and colours, and the paths of its uploaded
// assets. The export/import document holds only the name and colours (never file paths).
import * as v from "valibot";

const HEX = /^#[0-9a-fA-F]{6}$/;
export const HexColour = v.pipe(v.string(), v.regex(HEX, "A colour is #RRGGBB (six hexadecimal digits)."));
export const AppName = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, "The app name must not be empty."),
  v.maxLength(100, "The app name is at most 100 characters."),
);
export const AccentColours = v.pipe(
  v.array(HexColour),
  v.minLength(1, "Give 1 to 4 accent colours."),
  v.maxLength(4, "Give 1 to 4 accent colours."),
);

export const BrandingExport = v.object({ app_name: v.string(), primary_color: v.string(), accent_colors: v.array(v.string()) });

/** POST /branding/import: the export's keys, each optional; anything else is refused by name. */
export const BrandingImport = v.strictObject({
  app_name: v.optional(AppName),
  primary_color: v.optional(HexColour),
  accent_colors: v.optional(AccentColours),
});

export const BrandingConfig = v.object({
  app_name: v.string(),
  favicon_path: v.nullable(v.string()),
  login_logo_path: v.nullable(v.string()),
  login_bg_path: v.nullable(v.string()),
  primary_color: v.string(),
  accent_colors: v.array(v.string()),
});

export const BRANDING_ASSET_TYPES = ["favicon", "login-logo", "login-bg"] as const;
export type BrandingAssetType = (typeof BRANDING_ASSET_TYPES)[number];
export const BrandingAssetParams = v.object({
  asset_type: v.picklist(BRANDING_ASSET_TYPES, "asset_type is one of favicon, login-logo, login-bg."),
});

const ManifestIcon = v.object({ src: v.string(), sizes: v.string(), type: v.string(), purpose: v.optional(v.string()) });
export const WebManifest = v.object({
  name: v.string(),
  short_name: v.string(),
  icons: v.array(ManifestIcon),
  theme_color: v.string(),
  background_color: v.string(),
  display: v.string(),
  start_url: v.string(),
});

export const SecurityStatus = v.object({ auth_enabled: v.boolean(), has_users: v.boolean(), warning: v.nullable(v.string()) });
