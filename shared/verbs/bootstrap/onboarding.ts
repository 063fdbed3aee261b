// First-run guidance: GET /bootstrap/onboarding reports which set-up steps are done (computed from the
// data itself, so it never goes stale), PATCH dismisses it; POST /bootstrap/domain records the public
// address the deployment is reached at.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import { readSetting } from "../../settings/read.ts";
import { applySettingChanges } from "../settings/apply.ts";
import { defineRead, defineVerb } from "../verb.ts";

export interface OnboardingStep {
  key: string;
  title: string;
  done: boolean;
}

async function onboarding(db: Db) {
  const [counts] = await queryRows<Record<string, number>>(
    db,
    sql`select
      (select count(*)::int from users where role = 'admin' and is_active) as admins,
      (select count(*)::int from users) as users,
      (select count(*)::int from hardware) as hardware,
      (select count(*)::int from services) as services,
      (select count(*)::int from networks) as networks,
      (select count(*)::int from api_tokens where revoked_at is null) as tokens`,
  );
  const c = counts ?? {};
  const publicUrl = await readSetting(db, "public_url");
  const steps: OnboardingStep[] = [
    { key: "admin", title: "Create the first administrator", done: (c.admins ?? 0) > 0 },
    { key: "domain", title: "Set the address this deployment is reached at", done: publicUrl !== "" },
    { key: "hardware", title: "Add a hardware node", done: (c.hardware ?? 0) > 0 },
    { key: "network", title: "Describe a network", done: (c.networks ?? 0) > 0 },
    { key: "service", title: "Add a service", done: (c.services ?? 0) > 0 },
    { key: "users", title: "Invite another user", done: (c.users ?? 0) > 1 },
    { key: "token", title: "Create an API token for the CLI or Prometheus", done: (c.tokens ?? 0) > 0 },
  ];
  const dismissed = await readSetting(db, "onboarding_dismissed");
  return { steps, completed: steps.filter((s) => s.done).length, total: steps.length, dismissed, public_url: publicUrl || null };
}

export const getOnboarding = defineRead({ scope: "read:settings" }, async (ctx) => onboarding(ctx.db));

/** Answers the checklist as this transaction leaves it. */
export const setOnboardingDismissed = defineVerb({ scope: "admin:*" }, async (s, input: { dismissed: boolean }) => {
  await applySettingChanges(s, { onboarding_dismissed: input.dismissed }, "onboarding.update");
  return onboarding(s.tx);
});

export const setDomain = defineVerb({ scope: "admin:*" }, async (s, input: { publicUrl: string }) => {
  const normalized = input.publicUrl.replace(/\/+$/, "");
  await applySettingChanges(s, { public_url: normalized }, "bootstrap.domain");
  return { public_url: normalized };
});
