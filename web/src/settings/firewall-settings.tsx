// The firewall (OPNsense) the discovery `opnsense` scan reads (PATCH /settings/firewall): its API URL,
// certificate check, and the API key and secret, both write-only. "Check the firewall" asks the saved
// settings (GET /settings/firewall/test) for its version, ARP and DHCP lease counts, or says what failed.
import { useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice, TextInput } from "../components/field.tsx";
import { LoadError } from "./load-error.tsx";
import { emptySecret, type SecretDraft, SecretInput, secretPatch } from "./secret-input.tsx";
import { useSettingsDraft } from "./use-settings-draft.ts";
import { t } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

type Firewall = paths["/api/v1/settings/firewall"]["patch"]["responses"][200]["content"]["application/json"];
type Check = paths["/api/v1/settings/firewall/test"]["get"]["responses"][200]["content"]["application/json"];

interface Draft {
  url: string;
  verifyTls: boolean;
  key: SecretDraft;
  secret: SecretDraft;
}

const draftOf = (f: Firewall): Draft => ({
  url: f.firewall_url ?? "",
  verifyTls: f.firewall_verify_tls,
  key: emptySecret,
  secret: emptySecret,
});

function checkText(c: Check): string {
  if (!c.ok) return t("settings:firewall.failed", { reason: c.error ?? t("settings:firewall.noReason") });
  const count = (n: number | null) => (n === null ? t("settings:firewall.unknown") : String(n));
  const found = { version: c.version ?? t("settings:firewall.versionUnknown"), arp: count(c.arp_count), leases: count(c.lease_count) };
  return c.kea ? t("settings:firewall.okKea", found) : t("settings:firewall.ok", found);
}

export function FirewallSection() {
  const t = useT();
  const canEdit = useSession().can("admin:*");
  // GET /settings carries the firewall keys (read shape of PATCH /settings/firewall) among the others.
  const { settings, draft: d, set, save, saved, submit } = useSettingsDraft((all) => all as Firewall, draftOf);
  const test = useSubmit();
  const [check, setCheck] = useState<Check | undefined>();

  const send = submit((d) =>
    ok(
      api.PATCH("/api/v1/settings/firewall", {
        body: {
          firewall_url: d.url.trim() || null,
          firewall_verify_tls: d.verifyTls,
          ...secretPatch("firewall_api_key", d.key),
          ...secretPatch("firewall_api_secret", d.secret),
        },
      }),
    ),
  );
  const runCheck = () =>
    test.run(async () => {
      setCheck(undefined);
      setCheck(await ok(api.GET("/api/v1/settings/firewall/test")));
    });

  if (settings.error !== undefined) return <LoadError error={settings.error} what={t("settings:firewall.what")} />;
  const stored = settings.data;
  if (!stored || !d) return <p aria-busy="true">{t("common:loading")}</p>;
  return (
    <>
      <form class="card" onSubmit={send} noValidate aria-labelledby="firewall-title">
        <h2 id="firewall-title">{t("settings:section.firewall")}</h2>
        <p class="meta">{t("settings:firewall.intro")}</p>
        <fieldset class="plain" disabled={!canEdit}>
          <TextInput
            id="firewall-url"
            label={t("settings:firewall.url")}
            // i18n-ignore: an example address
            placeholder="https://opnsense.example.lan"
            value={d.url}
            error={save.fields.firewall_url}
            onValue={(url) => set({ url })}
          />
          <label class="check row">
            <input type="checkbox" checked={d.verifyTls} onChange={() => set({ verifyTls: !d.verifyTls })} />{" "}
            {t("settings:firewall.verifyTls")}
          </label>
          <SecretInput
            id="firewall-api-key"
            label={t("settings:firewall.apiKey")}
            stored={stored.firewall_api_key_set}
            draft={d.key}
            error={save.fields.firewall_api_key}
            onDraft={(key) => set({ key })}
          />
          <SecretInput
            id="firewall-api-secret"
            label={t("settings:firewall.apiSecret")}
            stored={stored.firewall_api_secret_set}
            draft={d.secret}
            error={save.fields.firewall_api_secret}
            onDraft={(secret) => set({ secret })}
          />
        </fieldset>
        <Notice kind="error">{save.error}</Notice>
        <Notice kind="success">{saved ? t("settings:firewall.saved") : undefined}</Notice>
        {canEdit && (
          <button type="submit" class="primary" disabled={save.busy}>
            {t("settings:firewall.save")}
          </button>
        )}
      </form>
      {canEdit && (
        <section class="card" aria-labelledby="firewall-test-title">
          <h2 id="firewall-test-title">{t("settings:firewall.checkTitle")}</h2>
          <Notice kind="error">{test.error}</Notice>
          {check && <Notice kind={check.ok ? "success" : "error"}>{checkText(check)}</Notice>}
          <button type="button" disabled={test.busy} onClick={() => void runCheck()}>
            {t("settings:firewall.check")}
          </button>
        </section>
      )}
    </>
  );
}
