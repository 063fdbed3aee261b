// The daily certificates job (under the scheduler's advisory lock): first renews the auto_renew
// certificates that expire within 30 days (self-signed: a new key and certificate; letsencrypt: a new
// ACME order, which needs the process's ACME client), re-presenting a renewed active certificate; then
// raises the expiry warnings 30, 14 and 3 days ahead through the notification routes, one alert per
// threshold per certificate: `warned_days` remembers the smallest threshold already sent (a renewal or
// a new upload clears it), so a daily run never repeats one.
import { and, asc, eq, lte, ne, sql } from "drizzle-orm";
import { certificates } from "../../db/schema/index.ts";
import type { AlertSeverity } from "../notifications/enqueue-alert.ts";
import { enqueueAlert } from "../notifications/enqueue-alert.ts";
import { type JobContext, type JobDefinition, type JobResult, throwIfStopped } from "../jobs/job.ts";
import { defineVerb } from "../verb.ts";
import { CERTIFICATES_SCOPE, requireCertificate } from "./present.ts";
import { renewCertificate } from "./renew-certificate.ts";

const DAY_MS = 86_400_000;
/** Renew this many days before expiry (Let's Encrypt's own advice for 90-day certificates). */
export const RENEW_WITHIN_DAYS = 30;
/** Warning thresholds, smallest first, with the severity each is raised at. */
export const WARNING_THRESHOLDS: readonly { days: number; severity: AlertSeverity }[] = [
  { days: 3, severity: "critical" },
  { days: 14, severity: "warning" },
  { days: 30, severity: "info" },
];
/** Certificates handled per run and pass; the rest wait for the next day (a bound, not an expected size). */
const BATCH = 200;

/** Whole days left before `expiresAt` (negative once expired). */
export const daysLeft = (expiresAt: Date, now: Date) => Math.floor((expiresAt.getTime() - now.getTime()) / DAY_MS);

/** The threshold a warning is due for now, or null: the smallest one crossed, when smaller than the last one sent. */
export function dueThreshold(expiresAt: Date, now: Date, warnedDays: number | null): { days: number; severity: AlertSeverity } | null {
  const left = daysLeft(expiresAt, now);
  const crossed = WARNING_THRESHOLDS.find((t) => left <= t.days);
  if (!crossed) return null;
  return warnedDays == null || crossed.days < warnedDays ? crossed : null;
}

export const warnExpiring = defineVerb<{ id: number }, boolean>({ scope: CERTIFICATES_SCOPE }, async (s, { id }) => {
  const row = await requireCertificate(s.tx, id, true);
  const due = dueThreshold(row.expires_at, s.now, row.warned_days);
  if (!due) return false;
  const left = daysLeft(row.expires_at, s.now);
  const when =
    left < 0
      ? `expired on ${row.expires_at.toISOString()}`
      : `expires in ${left} day${left === 1 ? "" : "s"} (${row.expires_at.toISOString()})`;
  const renewal = row.renew_error
    ? ` The last renewal failed: ${row.renew_error}`
    : row.auto_renew && row.type !== "imported"
      ? " Automatic renewal has not replaced it yet."
      : " It is not renewed automatically: renew it or upload its successor.";
  await enqueueAlert(s, {
    kind: "certificate.expiring",
    severity: due.severity,
    monitor_id: null,
    target_type: "certificate",
    target_id: row.id,
    title: "Certificate Expiration Warning",
    body: `The ${row.type} certificate for ${row.domain} (id ${row.id}) ${when}.${renewal}`,
    detail: {
      certificate_id: row.id,
      domain: row.domain,
      expires_at: row.expires_at.toISOString(),
      days_left: left,
      threshold_days: due.days,
      is_active: row.is_active,
    },
    occurred_at: s.now,
  });
  await s.tx.update(certificates).set({ warned_days: due.days }).where(eq(certificates.id, id));
  s.audit({
    action: "certificate.expiry_warning",
    category: "certificates",
    level: due.severity,
    entity_type: "certificate",
    entity_id: id,
    diff: { threshold_days: due.days, days_left: left },
  });
  return true;
});

export async function runCertificates({ ctx, logger, signal, deps: services }: JobContext): Promise<JobResult> {
  const now = ctx.clock.now();
  const horizon = new Date(now.getTime() + RENEW_WITHIN_DAYS * DAY_MS);
  const due = await ctx.db
    .select({ id: certificates.id, domain: certificates.domain })
    .from(certificates)
    .where(and(eq(certificates.auto_renew, true), ne(certificates.type, "imported"), lte(certificates.expires_at, horizon)))
    .orderBy(asc(certificates.expires_at))
    .limit(BATCH);
  const renewed: number[] = [];
  const failed: { id: number; error: string }[] = [];
  for (const { id, domain } of due) {
    throwIfStopped(signal);
    if (!services?.vault) {
      failed.push({ id, error: "this runner has no vault to seal a new key with" });
      continue;
    }
    try {
      await renewCertificate({
        ctx: { ...ctx, vault: services.vault },
        input: { id, acme: services.acme, tls: services.tls, signal, trigger: "schedule" },
      });
      renewed.push(id);
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      failed.push({ id, error });
      logger.warn("certificate renewal failed", { certificate_id: id, domain, error });
    }
  }
  // Warnings after renewals: a renewed certificate's warned_days is cleared and its expiry is far again.
  const expiring = await ctx.db
    .select({ id: certificates.id, expires_at: certificates.expires_at, warned_days: certificates.warned_days })
    .from(certificates)
    .where(and(lte(certificates.expires_at, horizon), sql`(${certificates.warned_days} is null or ${certificates.warned_days} > 3)`))
    .orderBy(asc(certificates.expires_at))
    .limit(BATCH);
  const warned: number[] = [];
  for (const row of expiring) {
    throwIfStopped(signal);
    if (dueThreshold(row.expires_at, now, row.warned_days) && (await warnExpiring({ ctx, input: { id: row.id } }))) warned.push(row.id);
  }
  return { rows_touched: renewed.length + warned.length, detail: { renewed, failed, warned } };
}

export const certificatesJob: JobDefinition = {
  name: "certificates",
  lockKey: "certificates_job",
  schedule: "40 4 * * *",
  description: `Renews auto_renew certificates expiring within ${RENEW_WITHIN_DAYS} days (re-presenting the active one) and raises expiry warnings 30, 14 and 3 days ahead.`,
  run: runCertificates,
};
