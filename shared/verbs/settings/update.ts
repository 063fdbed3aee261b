// PUT /settings: merges like a PATCH (docs/architecture.md, API contracts): only the keys given change, null puts a
// key back to its default, an unknown key is a 422 naming it. The sections' keys (view.ts) may come back
// unchanged with the rest of the read shape.
import { ApiError } from "../../errors.ts";
import type { SettingKey } from "../../settings/defaults.ts";
import { defineVerb } from "../verb.ts";
import { applySettingChanges } from "./apply.ts";
import { SETTINGS_WRITE_SCOPE } from "./read-all.ts";
import { unknownKeyIssues } from "./rules.ts";
import { readSettingsView, type SettingsView, withoutSectionKeys } from "./view.ts";

export const updateSettings = defineVerb(
  { scope: SETTINGS_WRITE_SCOPE },
  async (s, body: Record<string, unknown>): Promise<SettingsView> => {
    const input = await withoutSectionKeys(s.tx, body);
    const unknown = unknownKeyIssues(input);
    if (unknown.length) throw ApiError.validation(unknown);
    const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<
      Record<SettingKey, unknown>
    >;
    await applySettingChanges(s, changes, "settings.updated");
    return readSettingsView(s.tx);
  },
);
