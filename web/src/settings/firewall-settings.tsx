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
  if (!c.ok) return `The firewall check failed: ${c.error ?? "no reason given"}`;
  const count = (n: number | null) => (n === null ? "unknown" : String(n));
  return `OPNsense ${c.version ?? "(version unknown)"}: ${count(c.arp_count)} ARP entries, ${count(c.lease_count)} DHCP leases${c.kea ? " (Kea)" : ""}.`;
}

export function FirewallSection() {
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

  if (settings.error !== undefined) return <LoadError error={settings.error} what="the firewall settings" />;
  const stored = settings.data;
  if (!stored || !d) return <p aria-busy="true">Loading…</p>;
  return (
    <>
      <form class="card" onSubmit={send} noValidate aria-labelledby="firewall-title">
        <h2 id="firewall-title">Firewall (OPNsense)</h2>
        <p class="meta">The discovery scan "opnsense" reads this firewall's ARP table and DHCP leases through its API.</p>
        <fieldset class="plain" disabled={!canEdit}>
          <TextInput
            id="firewall-url"
            label="API URL"
            placeholder="https://opnsense.example.lan"
            value={d.url}
            error={save.fields.firewall_url}
            onValue={(url) => set({ url })}
          />
          <label class="check row">
            <input type="checkbox" checked={d.verifyTls} onChange={() => set({ verifyTls: !d.verifyTls })} /> Verify the firewall's
            certificate (untick for a self-signed one)
          </label>
          <SecretInput
            id="firewall-api-key"
            label="API key"
            stored={stored.firewall_api_key_set}
            draft={d.key}
            error={save.fields.firewall_api_key}
            onDraft={(key) => set({ key })}
          />
          <SecretInput
            id="firewall-api-secret"
            label="API secret"
            stored={stored.firewall_api_secret_set}
            draft={d.secret}
            error={save.fields.firewall_api_secret}
            onDraft={(secret) => set({ secret })}
          />
        </fieldset>
        <Notice kind="error">{save.error}</Notice>
        <Notice kind="success">{saved ? "The firewall settings are saved." : undefined}</Notice>
        {canEdit && (
          <button type="submit" class="primary" disabled={save.busy}>
            Save firewall settings
          </button>
        )}
      </form>
      {canEdit && (
        <section class="card" aria-labelledby="firewall-test-title">
          <h2 id="firewall-test-title">Check the saved firewall settings</h2>
          <Notice kind="error">{test.error}</Notice>
          {check && <Notice kind={check.ok ? "success" : "error"}>{checkText(check)}</Notice>}
          <button type="button" disabled={test.busy} onClick={() => void runCheck()}>
            Check the firewall
          </button>
        </section>
      )}
    </>
  );
}
