// The vault (whether this server holds the installation's key, where it comes from, how many secrets it
// seals) and the rate-limit profile every route's limits follow (read:settings to see it, admin to change it).
import { useEffect, useState } from "preact/hooks";
import { POLICY, PROFILES, type Profile } from "../../../shared/ratelimit/policy.ts";
import { api, ok } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { useLoad } from "../use-load.ts";
import { LoadError } from "./load-error.tsx";
import { RelativeTime } from "../components/time.tsx";
import { VaultActions } from "./vault-actions.tsx";
import { t } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

/** What a profile allows, from the table the server enforces (spec 8.1). */
function describe(profile: Profile): string {
  const rate = (c: keyof typeof POLICY) => {
    const r = POLICY[c][profile];
    return t("settings:rate.per", { limit: r.limit, minutes: r.windowMs / 60_000 });
  };
  return t("settings:rate.describe", { default: rate("default"), auth: rate("auth"), mfa: rate("mfa_verify"), scan: rate("scan") });
}

function VaultStatus() {
  const t = useT();
  const vault = useLoad(() => ok(api.GET("/api/v1/health/vault")), []);
  const v = vault.data;
  return (
    <section class="card" aria-labelledby="vault-title">
      <h2 id="vault-title">{t("settings:vault.title")}</h2>
      <LoadError error={vault.error} what={t("settings:vault.what")} />
      {v && (
        <dl class="fields">
          <dt>{t("settings:vault.status")}</dt>
          <dd>
            <Status value={v.status} />
          </dd>
          <dt>{t("settings:vault.keyFrom")}</dt>
          <dd>{v.key_source === "none" ? t("settings:vault.keyNowhere") : v.key_source}</dd>
          <dt>{t("settings:vault.keyId")}</dt>
          <dd>{v.key_id ?? "—"}</dd>
          <dt>{t("settings:vault.keyRecorded")}</dt>
          <dd>{v.initialized ? t("settings:vault.yes") : t("settings:vault.notYet")}</dd>
          <dt>{t("settings:vault.sealed")}</dt>
          <dd>{v.encrypted_secrets}</dd>
          <dt>{t("settings:vault.lastRotation")}</dt>
          <dd>
            <RelativeTime at={v.last_rotation} />
            {v.rotation_pending ? t("settings:vault.pending") : ""}
          </dd>
        </dl>
      )}
      {v && <VaultActions vault={v} onChange={() => vault.reload()} />}
    </section>
  );
}

function RateLimitProfile() {
  const t = useT();
  const session = useSession();
  const canEdit = session.can("admin:*");
  const settings = useLoad(() => ok(api.GET("/api/v1/settings")), []);
  const stored = settings.data?.rate_limit_profile as Profile | undefined;
  const [profile, setProfile] = useState<Profile>("normal");
  useEffect(() => stored && setProfile(stored), [stored]);
  const save = useSubmit();
  const [saved, setSaved] = useState(false);
  const send = (e: Event) => {
    e.preventDefault();
    setSaved(false);
    void save.run(async () => {
      await ok(api.PUT("/api/v1/settings", { body: { rate_limit_profile: profile } }));
      setSaved(true);
      settings.reload();
    });
  };
  return (
    <form class="card" onSubmit={send} aria-labelledby="rate-title">
      <h2 id="rate-title">{t("settings:rate.title")}</h2>
      <LoadError error={settings.error} what={t("settings:general.what")} />
      {stored && (
        <>
          <Field id="rate-profile" label={t("settings:rate.profile")} error={save.fields.rate_limit_profile} hint={describe(profile)}>
            {(a11y) => (
              <select
                {...a11y}
                value={profile}
                disabled={!canEdit}
                onChange={(e) => setProfile((e.currentTarget as HTMLSelectElement).value as Profile)}
              >
                {PROFILES.map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Notice kind="error">{save.error}</Notice>
          <Notice kind="success">{saved ? t("settings:rate.saved", { profile: stored }) : undefined}</Notice>
          {canEdit && (
            <button type="submit" disabled={save.busy || profile === stored}>
              {t("settings:rate.save")}
            </button>
          )}
        </>
      )}
    </form>
  );
}

export function SystemSection() {
  return (
    <>
      <VaultStatus />
      <RateLimitProfile />
    </>
  );
}
