// GET /branding (the BrandingConfig), GET /branding/export and POST /branding/import: the name and
// colours as a JSON document. The import is validated whole by its schema before anything is written,
// then merged over the stored values in one transaction under the settings lock, audited with the keys
// that changed.
import { appSettings } from "../../db/schema/index.ts";
import { changedKeys, lockSettings } from "../settings/apply.ts";
import { defineRead, defineVerb } from "../verb.ts";
import { BRANDING_KEY, type BrandingConfig, type BrandingSettings, readBrandingConfig, readBrandingSettings } from "./config.ts";

/** Branding is deployment-wide, so changing it is an administrator's job, like the favicon. */
export const BRANDING_WRITE_SCOPE = "admin:*";
export const BRANDING_READ_SCOPE = "read:settings";

export const exportBranding = defineRead({ scope: BRANDING_READ_SCOPE }, async (ctx): Promise<BrandingSettings> => {
  const { app_name, primary_color, accent_colors } = await readBrandingSettings(ctx.db);
  return { app_name, primary_color, accent_colors };
});

/** GET /branding: the name, colours and the paths of the uploaded assets, for the settings screen's previews. */
export const getBranding = defineRead({ scope: BRANDING_READ_SCOPE }, async (ctx): Promise<BrandingConfig> => readBrandingConfig(ctx.db));

export const importBranding = defineVerb<Partial<BrandingSettings>, BrandingConfig>({ scope: BRANDING_WRITE_SCOPE }, async (s, input) => {
  await lockSettings(s);
  const before = await readBrandingSettings(s.tx);
  const after: BrandingSettings = { ...before, ...input };
  const diff = changedKeys({ ...before }, { ...after });
  if (diff.keys.length) {
    await s.tx
      .insert(appSettings)
      .values({ key: BRANDING_KEY, value: after, updated_at: s.now })
      .onConflictDoUpdate({ target: appSettings.key, set: { value: after, updated_at: s.now } });
    s.audit({
      action: "branding.import",
      category: "settings",
      entity_type: "branding",
      entity_id: BRANDING_KEY,
      diff: { before: diff.before, after: diff.after },
    });
  }
  return readBrandingConfig(s.tx);
});
