// PUT /settings: merges like a PATCH (DESIGN.md 3 "Writes"): only the keys given change, null puts a
// key back to its default, an unknown key is a 422 naming it.
import { ApiError } from "../../errors.ts";
import type { SettingKey } from "../../settings/defaults.ts";
import type { VerbContext } from "../verb-context.ts";
import { requireScope } from "../verb.ts";
import { applySettingChanges, settingsTransaction } from "./apply.ts";
import { type Settings, SETTINGS_WRITE_SCOPE } from "./read-all.ts";
import { unknownKeyIssues } from "./rules.ts";

export async function updateSettings({ ctx, input }: { ctx: VerbContext; input: Record<string, unknown> }): Promise<Settings> {
  requireScope(ctx, SETTINGS_WRITE_SCOPE);
  const unknown = unknownKeyIssues(input);
  if (unknown.length) throw ApiError.validation(unknown);
  const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<Record<SettingKey, unknown>>;
  return settingsTransaction(ctx, (s) => applySettingChanges(s, changes, "settings.updated"));
}
