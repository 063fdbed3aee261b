// The text shared/domain writes for people, in the console's language: a notification provider field's
// hint and an alert-rule metric's description. Their catalogues (notifier-fields, metrics) are generated
// in English from shared/domain (scripts/console-text.ts) and keyed by shared/domain/console-text.ts, so the
// keys are built here at run time; tests/unit/console-text.test.ts checks every one in every language.
// Takes the translation function instead of importing i18n.ts (which touches `document`), so a Node test
// runs it over the real catalogues.
import type { TFunction } from "i18next";
import { findMetric } from "../../../shared/domain/alert-rules/metrics.ts";
import { metricKey, notifierHintKey, notifierLabelKey, notifierName } from "../../../shared/domain/console-text.ts";

/** A provider's name in the console's language (most are product names, the same in every language). */
export function providerName(t: TFunction, type: string): string {
  return t(notifierLabelKey(type), { skipInterpolation: true, defaultValue: notifierName(type) });
}

/**
 * A provider field's hint (undefined when the domain gives none), as it is: a hint shows mustache
 * examples (`{{monitor.name}}`) that are not i18next variables. The domain's English if a key were missing.
 */
export function fieldHint(t: TFunction, type: string, key: string, english: string | undefined): string | undefined {
  return english === undefined ? undefined : t(notifierHintKey(type, key), { skipInterpolation: true, defaultValue: english });
}

/** A metric's description, `host.fs_pct{/var}` naming its mount; undefined for a name the catalogue lacks. */
export function metricDescription(t: TFunction, name: string): string | undefined {
  const m = findMetric(name);
  return m && t(metricKey(name), { mount: m.mount, defaultValue: m.description });
}
