// First-run guidance: GET /bootstrap/onboarding reports which set-up steps are done (computed from the
// data itself, so it never goes stale), PATCH dismisses it; POST /bootstrap/domain records the public
// address the deployment is reached at.
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { readSetting } from "../../settings/read.ts";
import type { VerbContext } from "../verb-context.ts";
import { applySettingChanges, settingsTransaction } from "../settings/apply.ts";
import { requireScope } from "../verb.ts";

export interface OnboardingStep {
  key: string;
  title: string;
  done: boolean;
}

export async function getOnboarding({ ctx }: { ctx: VerbContext }) {
  requireScope(ctx, "read:settings");
  const [counts] = await queryRows<Record<string, number>>(
    ctx.db,
    sql`select
      (select count(*)::int from users where role = 'admin' and is_active) as admins,
      (select count(*)::int from users) as users,
      (select count(*)::int from hardware) as hardware,
      (select count(*)::int from services) as services,
      (select count(*)::int from networks) as networks,
      (select count(*)::int from api_tokens where revoked_at is null) as tokens`,
  );
  const c = counts ?? {};
  const publicUrl = await readSetting(ctx.db, "public_url");
  const steps: OnboardingStep[] = [
    { key: "admin", title: "Create the first administrator", done: (c.admins ?? 0) > 0 },
    { key: "domain", title: "Set the address this deployment is reached at", done: publicUrl !== "" },
    { key: "hardware", title: "Add a hardware node", done: (c.hardware ?? 0) > 0 },
    { key: "network", title: "Describe a network", done: (c.networks ?? 0) > 0 },
    { key: "service", title: "Add a service", done: (c.services ?? 0) > 0 },
    { key: "users", title: "Invite another user", done: (c.users ?? 0) > 1 },
    { key: "token", title: "Create an API token for the CLI or Prometheus", done: (c.tokens ?? 0) > 0 },
  ];
  const dismissed = await readSetting(ctx.db, "onboarding_dismissed");
  return { steps, completed: steps.filter((s) => s.done).length, total: steps.length, dismissed, public_url: publicUrl || null };
}

export async function setOnboardingDismissed({ ctx, dismissed }: { ctx: VerbContext; dismissed: boolean }) {
  requireScope(ctx, "admin:*");
  await settingsTransaction(ctx, (s) => applySettingChanges(s, { onboarding_dismissed: dismissed }, "onboarding.update"));
  return getOnboarding({ ctx });
}

export async function setDomain({ ctx, publicUrl }: { ctx: VerbContext; publicUrl: string }) {
  requireScope(ctx, "admin:*");
  const normalized = publicUrl.replace(/\/+$/, "");
  await settingsTransaction(ctx, (s) => applySettingChanges(s, { public_url: normalized }, "bootstrap.domain"));
  return { public_url: normalized };
}
