// The DNS-01 credentials certificate issuance uses (PATCH /settings/acme-dns): one provider at a time,
// Cloudflare (an API token) or RFC 2136 (server, port, TSIG key name, algorithm and secret). The token
// and the TSIG secret are write-only, shown as set or not set. Switching provider drops the old
// credential on the server; "None" clears everything.
import { api, ok, type paths } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { Field, Notice, TextInput } from "../components/field.tsx";
import { LoadError } from "./load-error.tsx";
import { emptySecret, type SecretDraft, SecretInput, secretPatch } from "./secret-input.tsx";
import { typedPort, useSettingsDraft } from "./use-settings-draft.ts";
import { useT } from "../i18n/use-t.ts";

type AcmeDns = paths["/api/v1/settings/acme-dns"]["patch"]["responses"][200]["content"]["application/json"]["acme_dns"];
type Provider = "" | "cloudflare" | "rfc2136";
const ALGORITHMS = ["hmac-sha256", "hmac-sha512", "hmac-sha384", "hmac-sha224", "hmac-sha1", "hmac-md5"] as const;

interface Draft {
  provider: Provider;
  token: SecretDraft;
  server: string;
  port: string;
  tsigName: string;
  algorithm: string;
  tsigSecret: SecretDraft;
}

const draftOf = (a: AcmeDns): Draft => ({
  provider: a.provider ?? "",
  token: emptySecret,
  server: a.server ?? "",
  port: String(a.port ?? 53),
  tsigName: a.tsig_name ?? "",
  algorithm: a.tsig_algorithm ?? "hmac-sha256",
  tsigSecret: emptySecret,
});

function bodyOf(d: Draft) {
  if (d.provider === "cloudflare") return { provider: d.provider, ...secretPatch("api_token", d.token) };
  if (d.provider === "rfc2136") {
    return {
      provider: d.provider,
      server: d.server.trim() || null,
      port: typedPort(d.port),
      tsig_name: d.tsigName.trim() || null,
      tsig_algorithm: d.algorithm as (typeof ALGORITHMS)[number],
      ...secretPatch("tsig_secret", d.tsigSecret),
    };
  }
  return { provider: null };
}

export function AcmeDnsSection() {
  const t = useT();
  const canEdit = useSession().can("admin:*");
  // GET /settings carries `acme_dns` (read shape of PATCH /settings/acme-dns) among the other keys.
  const { settings, draft: d, set, save, saved, submit } = useSettingsDraft((all) => (all as { acme_dns: AcmeDns }).acme_dns, draftOf);
  const send = submit((d) => ok(api.PATCH("/api/v1/settings/acme-dns", { body: bodyOf(d) })));

  if (settings.error !== undefined) return <LoadError error={settings.error} what={t("settings:acme.what")} />;
  const stored = settings.data;
  if (!stored || !d) return <p aria-busy="true">{t("common:loading")}</p>;
  const same = stored.provider === (d.provider || null);
  return (
    <form class="card" onSubmit={send} noValidate aria-labelledby="acme-dns-title">
      <h2 id="acme-dns-title">{t("settings:acme.title")}</h2>
      <p class="meta">{t("settings:acme.intro")}</p>
      <fieldset class="plain" disabled={!canEdit}>
        <Field id="acme-dns-provider" label={t("settings:acme.provider")} error={save.fields.provider}>
          {(a11y) => (
            <select
              {...a11y}
              value={d.provider}
              onChange={(e) => set({ provider: (e.currentTarget as HTMLSelectElement).value as Provider })}
            >
              <option value="">{t("settings:none")}</option>
              {/* i18n-ignore: a product name */}
              <option value="cloudflare">Cloudflare</option>
              {/* i18n-ignore: a standard's name */}
              <option value="rfc2136">RFC 2136 (TSIG)</option>
            </select>
          )}
        </Field>
        {!same && stored.provider && <Notice kind="info">{t("settings:acme.replaces", { provider: stored.provider })}</Notice>}
        {d.provider === "cloudflare" && (
          <SecretInput
            id="acme-dns-api-token"
            label={t("settings:acme.apiToken")}
            stored={same && stored.api_token_set === true}
            draft={d.token}
            error={save.fields.api_token}
            onDraft={(token) => set({ token })}
          />
        )}
        {d.provider === "rfc2136" && (
          <>
            <TextInput
              id="acme-dns-server"
              label={t("settings:acme.server")}
              // i18n-ignore: an example host name
              placeholder="ns1.example.com"
              value={d.server}
              error={save.fields.server}
              onValue={(server) => set({ server })}
            />
            <TextInput
              id="acme-dns-port"
              label={t("settings:port")}
              inputMode="numeric"
              value={d.port}
              error={save.fields.port}
              onValue={(port) => set({ port })}
            />
            <TextInput
              id="acme-dns-tsig-name"
              label={t("settings:acme.tsigName")}
              value={d.tsigName}
              error={save.fields.tsig_name}
              onValue={(tsigName) => set({ tsigName })}
            />
            <Field id="acme-dns-tsig-algorithm" label={t("settings:acme.tsigAlgorithm")} error={save.fields.tsig_algorithm}>
              {(a11y) => (
                <select {...a11y} value={d.algorithm} onChange={(e) => set({ algorithm: (e.currentTarget as HTMLSelectElement).value })}>
                  {ALGORITHMS.map((a) => (
                    <option key={a} value={a}>
                      {a}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <SecretInput
              id="acme-dns-tsig-secret"
              label={t("settings:acme.tsigSecret")}
              stored={same && stored.tsig_secret_set === true}
              draft={d.tsigSecret}
              error={save.fields.tsig_secret}
              onDraft={(tsigSecret) => set({ tsigSecret })}
            />
          </>
        )}
      </fieldset>
      <Notice kind="error">{save.error}</Notice>
      <Notice kind="success">{saved ? t("settings:acme.saved") : undefined}</Notice>
      {canEdit && (
        <button type="submit" class="primary" disabled={save.busy}>
          {t("settings:acme.save")}
        </button>
      )}
    </form>
  );
}
