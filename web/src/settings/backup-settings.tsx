// The backup schedule and the S3 copy (GET/PUT /admin/settings/backup): a five-field cron in UTC (empty:
// no scheduled backups), how many archives to keep here and in the bucket, and the bucket. The secret
// key is write-only, shown as set or not set, kept when left empty and removed only when asked. "Check
// the S3 target" lists one key under the prefix with the saved settings (POST .../backup/test).
import { useEffect, useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice, TextInput } from "../components/field.tsx";
import { useLoad } from "../use-load.ts";
import { LoadError } from "./load-error.tsx";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

type BackupSettings = paths["/api/v1/admin/settings/backup"]["get"]["responses"][200]["content"]["application/json"];
const KEYS = [
  "backup_schedule",
  "backup_local_retention_count",
  "backup_s3_bucket",
  "backup_s3_endpoint_url",
  "backup_s3_region",
  "backup_s3_prefix",
  "backup_s3_access_key_id",
  "backup_s3_retention_count",
] as const;
type Key = (typeof KEYS)[number];
const LABELS: Record<Key, { label: string; hint?: string; placeholder?: string; numeric?: boolean }> = {
  backup_schedule: {
    label: i18nKey("settings:backupSettings.schedule"),
    placeholder: "0 2 * * *",
    hint: i18nKey("settings:backupSettings.schedule.hint"),
  },
  backup_local_retention_count: { label: i18nKey("settings:backupSettings.localCount"), numeric: true },
  backup_s3_bucket: { label: i18nKey("settings:backupSettings.bucket"), hint: i18nKey("settings:backupSettings.bucket.hint") },
  backup_s3_endpoint_url: {
    label: i18nKey("settings:backupSettings.endpoint"),
    placeholder: "https://s3.example.com",
    hint: i18nKey("settings:backupSettings.endpoint.hint"),
  },
  backup_s3_region: { label: i18nKey("settings:backupSettings.region") },
  backup_s3_prefix: { label: i18nKey("settings:backupSettings.prefix") },
  backup_s3_access_key_id: { label: i18nKey("settings:backupSettings.accessKey") },
  backup_s3_retention_count: { label: i18nKey("settings:backupSettings.bucketCount"), numeric: true },
};

const inputsOf = (b: BackupSettings): Record<Key, string> =>
  Object.fromEntries(KEYS.map((k) => [k, b[k] == null ? "" : String(b[k])])) as Record<Key, string>;

export function BackupSettingsForm() {
  const t = useT();
  const stored = useLoad(() => ok(api.GET("/api/v1/admin/settings/backup")), []);
  const [inputs, setInputs] = useState<Record<Key, string> | undefined>();
  const [secret, setSecret] = useState("");
  const [removeSecret, setRemoveSecret] = useState(false);
  // The inputs start from the first read; later reads (after a save) must not overwrite what is being typed,
  // so a save sets them from its own answer instead.
  useEffect(() => {
    if (stored.data && !inputs) setInputs(inputsOf(stored.data));
  }, [stored.data]);
  const save = useSubmit();
  const check = useSubmit();
  const [saved, setSaved] = useState<string | undefined>();
  const [checked, setChecked] = useState<string | undefined>();

  const send = (e: Event) => {
    e.preventDefault();
    if (!inputs) return;
    setSaved(undefined);
    void save.run(async () => {
      const body: Record<string, unknown> = {};
      for (const k of KEYS) {
        const v = inputs[k].trim();
        // Counts go as numbers (or as typed, so the 422 names them); an empty schedule turns it off; other
        // empty texts clear the key ("" is the API's clear for bucket, endpoint and access key).
        if (LABELS[k].numeric) body[k] = v !== "" && Number.isInteger(Number(v)) ? Number(v) : v;
        else if (k === "backup_schedule") body[k] = v || null;
        else if (v !== "" || stored.data?.[k] != null) body[k] = v;
      }
      if (removeSecret) body.backup_s3_secret_key = "";
      else if (secret) body.backup_s3_secret_key = secret;
      const out = await ok(
        api.PUT("/api/v1/admin/settings/backup", {
          body: body as paths["/api/v1/admin/settings/backup"]["put"]["requestBody"]["content"]["application/json"],
        }),
      );
      setInputs(inputsOf(out as BackupSettings));
      setSecret("");
      setRemoveSecret(false);
      setSaved(
        out.backup_schedule
          ? t("settings:backupSettings.savedSchedule", { schedule: out.backup_schedule })
          : t("settings:backupSettings.savedNone"),
      );
      stored.reload();
    });
  };
  const runCheck = () =>
    check.run(async () => {
      setChecked(undefined);
      const out = await ok(api.POST("/api/v1/admin/settings/backup/test"));
      setChecked(
        out.endpoint
          ? t("settings:backupSettings.answersAt", { bucket: out.bucket, endpoint: out.endpoint })
          : t("settings:backupSettings.answers", { bucket: out.bucket }),
      );
    });

  if (stored.error !== undefined) return <LoadError error={stored.error} what={t("settings:backupSettings.what")} />;
  if (!stored.data || !inputs) return <p aria-busy="true">{t("common:loading")}</p>;
  return (
    <form class="card" onSubmit={send} noValidate aria-labelledby="backup-settings-title">
      <h2 id="backup-settings-title">{t("settings:backupSettings.title")}</h2>
      {KEYS.map((k) => (
        <TextInput
          key={k}
          id={`backup-${k}`}
          label={t(LABELS[k].label)}
          {...(LABELS[k].hint ? { hint: t(LABELS[k].hint) } : {})}
          {...(LABELS[k].placeholder ? { placeholder: LABELS[k].placeholder } : {})}
          {...(LABELS[k].numeric ? { inputMode: "numeric" as const } : {})}
          autoComplete="off"
          value={inputs[k]}
          error={save.fields[k]}
          onValue={(v) => setInputs({ ...inputs, [k]: v })}
        />
      ))}
      <TextInput
        id="backup-s3-secret"
        label={t("settings:backupSettings.secretKey")}
        type="password"
        autoComplete="new-password"
        hint={stored.data.backup_s3_secret_key_set ? t("settings:secret.set") : t("settings:secret.notSet")}
        value={secret}
        error={save.fields.backup_s3_secret_key}
        onValue={(v) => {
          setSecret(v);
          setRemoveSecret(false);
        }}
      />
      {stored.data.backup_s3_secret_key_set && (
        <label class="check row">
          <input
            type="checkbox"
            checked={removeSecret}
            onChange={() => {
              setRemoveSecret(!removeSecret);
              setSecret("");
            }}
          />{" "}
          {t("settings:backupSettings.removeSecret")}
        </label>
      )}
      <Notice kind="error">{save.error}</Notice>
      <Notice kind="success">{saved}</Notice>
      <Notice kind="error">{check.error}</Notice>
      <Notice kind="success">{checked}</Notice>
      <div class="actions">
        <button type="submit" class="primary" disabled={save.busy}>
          {t("settings:backupSettings.save")}
        </button>
        <button type="button" disabled={check.busy || !stored.data.backup_s3_bucket} onClick={() => void runCheck()}>
          {t("settings:backupSettings.check")}
        </button>
      </div>
    </form>
  );
}
