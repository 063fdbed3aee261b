// GET|PUT /admin/settings/backup (spec/catalogue.tsv, group admin-db): the S3 target, the retention counts
// and the backup schedule, in the `backup` row of app_settings; the S3 secret key sealed apart under
// settings.backup.backup_s3_secret_key (SETTINGS_SECRETS, so vault rotation re-encrypts it) and read
// as backup_s3_secret_key_set only. PATCH semantics: absent keeps, "" clears bucket/endpoint/key id,
// secret key "" clears it and null keeps it (the reference's None = unchanged).
// backup_age_recipient is left out: there is no age implementation in the tree (docs/backups.md).
import { Cron } from "croner";
import type { Db } from "../../db/database.ts";
import { checkOutboundUrl } from "../../domain/net/outbound-policy.ts";
import { ApiError, type ValidationIssue } from "../../errors.ts";
import type { Vault } from "../../vault/vault.ts";
import { savedUrlRefusal } from "../../net/resolved-host.ts";
import { readOutboundPolicy } from "../integrations/outbound-policy.ts";
import { changedKeys } from "../settings/apply.ts";
import { lockSection, openSectionSecret, readSection, type Section, writeSection } from "../settings/secret-section.ts";
import { defineRead, defineVerb } from "../verb.ts";
import { BACKUPS_SCOPE, type BackupStore, requireStore, S3Error, type S3Target } from "./store.ts";
import { vaultOf } from "../verb-context.ts";

export const BACKUP_SECTION = "backup";
const SECRET = "backup_s3_secret_key";

export interface BackupSettings {
  backup_s3_bucket: string | null;
  backup_s3_endpoint_url: string | null;
  backup_s3_access_key_id: string | null;
  backup_s3_secret_key_set: boolean;
  backup_s3_region: string;
  backup_s3_prefix: string;
  backup_s3_retention_count: number;
  backup_local_retention_count: number;
  /** Cron (minute hour day month weekday) read in UTC like every job's (the db_backup job follows it); null: no scheduled backups. */
  backup_schedule: string | null;
}
type Plain = Omit<BackupSettings, "backup_s3_secret_key_set">;
export type BackupSettingsPatch = { [K in keyof Plain]?: Plain[K] } & { backup_s3_secret_key?: string | null };

export const BACKUP_DEFAULTS: Plain = {
  backup_s3_bucket: null,
  backup_s3_endpoint_url: null,
  backup_s3_access_key_id: null,
  backup_s3_region: "us-east-1",
  backup_s3_prefix: "circuitbreaker/backups/",
  backup_s3_retention_count: 30,
  backup_local_retention_count: 7,
  backup_schedule: "0 3 * * *",
};
const KEYS = Object.keys(BACKUP_DEFAULTS) as (keyof Plain)[];
const CLEARED_BY_EMPTY = new Set<keyof Plain>(["backup_s3_bucket", "backup_s3_endpoint_url", "backup_s3_access_key_id"]);

function present(section: Section): BackupSettings {
  const plain = Object.fromEntries(KEYS.map((k) => [k, k in section.fields ? section.fields[k] : BACKUP_DEFAULTS[k]])) as Plain;
  return { ...plain, backup_s3_secret_key_set: section.secrets.has(SECRET) };
}

export async function readBackupSettingsRow(db: Db): Promise<BackupSettings> {
  return present(await readSection(db, BACKUP_SECTION));
}

export const readBackupSettings = defineRead<undefined, BackupSettings>({ scope: BACKUPS_SCOPE }, async (ctx) =>
  readBackupSettingsRow(ctx.db),
);

/** Whether `schedule` is a cron croner reads (five fields). */
export function cronProblem(schedule: string): string | null {
  if (schedule.trim().split(/\s+/).length !== 5) return "expects five cron fields (minute hour day month weekday)";
  try {
    new Cron(schedule, { paused: true });
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

export const updateBackupSettings = defineVerb<BackupSettingsPatch, BackupSettings>({ scope: BACKUPS_SCOPE }, async (s, patch) => {
  const vault = vaultOf(s.ctx);
  const secrets: Record<string, string | null> = {};
  if (typeof patch.backup_s3_secret_key === "string")
    secrets[SECRET] = patch.backup_s3_secret_key === "" ? null : patch.backup_s3_secret_key;
  await lockSection(s, vault, secrets);
  const section = await readSection(s.tx, BACKUP_SECTION);
  const before = present(section);
  const next: Record<string, unknown> = Object.fromEntries(KEYS.map((k) => [k, before[k]]));
  for (const k of KEYS) {
    const value = patch[k];
    if (value === undefined) continue;
    next[k] = value === "" && CLEARED_BY_EMPTY.has(k) ? null : value;
  }
  const problems: ValidationIssue[] = [];
  if (typeof next.backup_s3_endpoint_url === "string" && patch.backup_s3_endpoint_url) {
    const policy = await readOutboundPolicy(s.tx);
    const check = checkOutboundUrl(next.backup_s3_endpoint_url, policy);
    const reason = check.ok ? await savedUrlRefusal(s.ctx.resolveHost, next.backup_s3_endpoint_url, policy) : null;
    if (!check.ok) problems.push({ loc: ["body", "backup_s3_endpoint_url"], msg: check.message, type: "value_error" });
    else if (reason !== null)
      problems.push({ loc: ["body", "backup_s3_endpoint_url"], msg: `The URL's host is not allowed: ${reason}.`, type: "value_error" });
  }
  if (typeof patch.backup_schedule === "string") {
    const why = cronProblem(patch.backup_schedule);
    if (why) problems.push({ loc: ["body", "backup_schedule"], msg: `Not a cron schedule: ${why}.`, type: "value_error" });
  }
  if (problems.length) throw ApiError.validation(problems);
  await writeSection(s, vault, BACKUP_SECTION, next, secrets);
  const after = await readBackupSettingsRow(s.tx);
  const diff = changedKeys({ ...before }, { ...after });
  if (diff.keys.length || SECRET in secrets)
    s.audit({
      action: "settings.backup_updated",
      category: "settings",
      entity_type: "settings",
      entity_id: BACKUP_SECTION,
      diff: { before: diff.before, after: diff.after, secret_key_changed: SECRET in secrets },
    });
  return after;
});

/** The S3 target of the stored settings, the secret opened; null when no bucket is configured. */
export async function readS3Target(db: Db, vault: Vault): Promise<{ target: S3Target; settings: BackupSettings } | null> {
  const settings = await readBackupSettingsRow(db);
  if (!settings.backup_s3_bucket) return null;
  const policy = await readOutboundPolicy(db);
  if (settings.backup_s3_endpoint_url) {
    const check = checkOutboundUrl(settings.backup_s3_endpoint_url, policy);
    if (!check.ok) throw new S3Error(`The S3 endpoint is not allowed: ${check.message}`);
  }
  return {
    settings,
    target: {
      endpoint: settings.backup_s3_endpoint_url,
      region: settings.backup_s3_region,
      bucket: settings.backup_s3_bucket,
      prefix: settings.backup_s3_prefix,
      accessKeyId: settings.backup_s3_access_key_id,
      secretAccessKey: await openSectionSecret(db, vault, BACKUP_SECTION, SECRET),
      policy,
    },
  };
}

/** POST /admin/settings/backup/test: lists the prefix (one key) with the stored settings. */
export const testBackupTarget = defineRead<{ store: BackupStore | undefined }, { status: "ok"; bucket: string; endpoint: string | null }>(
  { scope: BACKUPS_SCOPE },
  async (ctx, input) => {
    const store = requireStore(input.store);
    let found: Awaited<ReturnType<typeof readS3Target>>;
    try {
      found = await readS3Target(ctx.db, vaultOf(ctx));
    } catch (e) {
      throw new ApiError("UPSTREAM_FAILED", (e as Error).message);
    }
    if (!found) throw new ApiError("BAD_REQUEST", "S3 bucket not configured");
    try {
      await store.testS3(found.target);
    } catch (e) {
      if (e instanceof S3Error) throw new ApiError("UPSTREAM_FAILED", e.message);
      throw e;
    }
    return { status: "ok", bucket: found.target.bucket, endpoint: found.target.endpoint };
  },
);
