// A hardware node's SNMP poll (POST /hardware/{id}/telemetry/config, docs/adr/0489): how the sidecar polls it
// (v1/v2c with a community, v3 with a USM user), when it last polled and what went wrong, and "Poll now".
// Secrets are write-only (SecretInput: set or not, empty keeps); a field the version or the security level
// does not use is not shown, so it is never sent (the API refuses it rather than keep it unused).
import { useState } from "preact/hooks";
import { anyApi, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice, SelectInput, TextInput } from "../components/field.tsx";
import { RelativeTime } from "../components/time.tsx";
import { useT } from "../i18n/use-t.ts";
import { emptySecret, SecretInput, type SecretDraft, secretPatch } from "../settings/secret-input.tsx";
import { useLoad } from "../use-load.ts";

interface Config {
  enabled: boolean;
  host: string | null;
  port: number | null;
  snmp_version: string | null;
  community_set: boolean;
  username: string | null;
  security_level: string | null;
  auth_protocol: string | null;
  auth_key_set: boolean;
  priv_protocol: string | null;
  priv_key_set: boolean;
  interval_s: number;
  last_polled_at: string | null;
  last_error: string | null;
}

const VERSIONS = ["v2c", "v1", "v3"] as const;
const LEVELS = ["noAuthNoPriv", "authNoPriv", "authPriv"] as const;
const AUTH_PROTOCOLS = ["SHA", "SHA-224", "SHA-256", "SHA-384", "SHA-512"] as const;
const PRIV_PROTOCOLS = ["AES", "AES-256-B", "AES-256-R"] as const;

interface Draft {
  enabled: boolean;
  host: string;
  port: string;
  snmp_version: string;
  community: SecretDraft;
  username: string;
  security_level: string;
  auth_protocol: string;
  auth_key: SecretDraft;
  priv_protocol: string;
  priv_key: SecretDraft;
  interval_s: string;
}

const draftOf = (c: Config | null): Draft => ({
  enabled: c?.enabled ?? true,
  host: c?.host ?? "",
  port: String(c?.port ?? 161),
  snmp_version: c?.snmp_version ?? "v2c",
  community: emptySecret,
  username: c?.username ?? "",
  security_level: c?.security_level ?? "noAuthNoPriv",
  auth_protocol: c?.auth_protocol ?? "SHA",
  auth_key: emptySecret,
  priv_protocol: c?.priv_protocol ?? "AES",
  priv_key: emptySecret,
  interval_s: String(c?.interval_s ?? 60),
});

/** The body of a save: only the fields the chosen version and level use. */
function bodyOf(d: Draft): Record<string, unknown> {
  const v3 = d.snmp_version === "v3";
  const auth = v3 && d.security_level !== "noAuthNoPriv";
  const priv = v3 && d.security_level === "authPriv";
  return {
    protocol: "snmp",
    enabled: d.enabled,
    host: d.host.trim() === "" ? null : d.host.trim(),
    port: Number(d.port),
    snmp_version: d.snmp_version,
    interval_s: Number(d.interval_s),
    ...(v3 ? {} : secretPatch("community", d.community)),
    ...(v3 ? { username: d.username, security_level: d.security_level } : {}),
    ...(auth ? { auth_protocol: d.auth_protocol, ...secretPatch("auth_key", d.auth_key) } : {}),
    ...(priv ? { priv_protocol: d.priv_protocol, ...secretPatch("priv_key", d.priv_key) } : {}),
  };
}

function Choice(props: {
  id: string;
  label: string;
  value: string;
  options: readonly string[];
  error?: string | undefined;
  onValue(v: string): void;
}) {
  return <SelectInput {...props} options={props.options.map((o) => [o, o] as const)} />;
}

export function TelemetryConfigSection({ id }: { id: string }) {
  const t = useT();
  const session = useSession();
  const canWrite = session.can("write:hardware");
  const params = { path: { hardware_id: id } };
  const loaded = useLoad(
    async () =>
      (
        (await ok(anyApi.GET("/api/v1/hardware/{hardware_id}/telemetry", { params: { ...params, query: { limit: 1 } } }))) as {
          config: Config | null;
        }
      ).config,
    [id],
  );
  const [draft, setDraft] = useState<Draft | null>(null);
  const [notice, setNotice] = useState<string | undefined>();
  const submit = useSubmit();
  const config = loaded.data ?? null;
  const d = draft ?? draftOf(config);
  const set = (patch: Partial<Draft>) => setDraft({ ...d, ...patch });
  const f = submit.fields;
  const v3 = d.snmp_version === "v3";

  const save = (e: Event) => {
    e.preventDefault();
    setNotice(undefined);
    void submit.run(async () => {
      await ok(anyApi.POST("/api/v1/hardware/{hardware_id}/telemetry/config", { params, body: bodyOf(d) }));
      setDraft(null);
      loaded.reload();
      setNotice(t("telemetry:saved"));
    });
  };
  const pollNow = () => {
    setNotice(undefined);
    void submit.run(async () => {
      await ok(anyApi.POST("/api/v1/hardware/{hardware_id}/telemetry/poll", { params }));
      setNotice(t("telemetry:pollQueued"));
      // The poll lands within a few seconds; the section reads the outcome again.
      setTimeout(() => loaded.reload(), 3000);
    });
  };

  if (loaded.error !== undefined && loaded.data === undefined) return <Notice kind="error">{messageOf(loaded.error)}</Notice>;
  return (
    <section aria-labelledby="telemetry-title" class="telemetry-config">
      <h2 id="telemetry-title">{t("telemetry:title")}</h2>
      {config ? (
        <p class="meta" data-testid="telemetry-state">
          {config.last_polled_at ? (
            <>
              {t("telemetry:lastPolled")} <RelativeTime at={config.last_polled_at} />
            </>
          ) : (
            t("telemetry:neverPolled")
          )}
          {config.last_error ? ` · ${t("telemetry:lastError", { error: config.last_error })}` : ""}
        </p>
      ) : (
        <p class="meta">{t("telemetry:none")}</p>
      )}
      <Notice kind="error">{submit.errorBesides(Object.keys(f))}</Notice>
      <Notice kind="success">{notice}</Notice>
      <form onSubmit={save} noValidate>
        <fieldset disabled={!canWrite || submit.busy} class="plain">
          <label class="check row">
            <input type="checkbox" checked={d.enabled} onChange={() => set({ enabled: !d.enabled })} /> {t("telemetry:enabled")}
          </label>
          <TextInput
            id="telemetry-host"
            label={t("telemetry:host")}
            hint={t("telemetry:hostHint")}
            value={d.host}
            error={f.host}
            onValue={(host) => set({ host })}
          />
          <TextInput
            id="telemetry-port"
            label={t("telemetry:port")}
            inputMode="numeric"
            value={d.port}
            error={f.port}
            onValue={(port) => set({ port })}
          />
          <Choice
            id="telemetry-version"
            label={t("telemetry:version")}
            value={d.snmp_version}
            options={VERSIONS}
            error={f.snmp_version}
            onValue={(snmp_version) => set({ snmp_version })}
          />
          {!v3 && (
            <SecretInput
              id="telemetry-community"
              label={t("telemetry:community")}
              stored={config?.community_set ?? false}
              draft={d.community}
              error={f.community}
              onDraft={(community) => set({ community })}
            />
          )}
          {v3 && (
            <>
              <TextInput
                id="telemetry-username"
                label={t("telemetry:username")}
                value={d.username}
                error={f.username}
                onValue={(username) => set({ username })}
              />
              <Choice
                id="telemetry-level"
                label={t("telemetry:securityLevel")}
                value={d.security_level}
                options={LEVELS}
                error={f.security_level}
                onValue={(security_level) => set({ security_level })}
              />
              {d.security_level !== "noAuthNoPriv" && (
                <>
                  <Choice
                    id="telemetry-auth-protocol"
                    label={t("telemetry:authProtocol")}
                    value={d.auth_protocol}
                    options={AUTH_PROTOCOLS}
                    error={f.auth_protocol}
                    onValue={(auth_protocol) => set({ auth_protocol })}
                  />
                  <SecretInput
                    id="telemetry-auth-key"
                    label={t("telemetry:authKey")}
                    stored={config?.auth_key_set ?? false}
                    draft={d.auth_key}
                    error={f.auth_key}
                    onDraft={(auth_key) => set({ auth_key })}
                  />
                </>
              )}
              {d.security_level === "authPriv" && (
                <>
                  <Choice
                    id="telemetry-priv-protocol"
                    label={t("telemetry:privProtocol")}
                    value={d.priv_protocol}
                    options={PRIV_PROTOCOLS}
                    error={f.priv_protocol}
                    onValue={(priv_protocol) => set({ priv_protocol })}
                  />
                  <SecretInput
                    id="telemetry-priv-key"
                    label={t("telemetry:privKey")}
                    stored={config?.priv_key_set ?? false}
                    draft={d.priv_key}
                    error={f.priv_key}
                    onDraft={(priv_key) => set({ priv_key })}
                  />
                </>
              )}
            </>
          )}
          <TextInput
            id="telemetry-interval"
            label={t("telemetry:interval")}
            inputMode="numeric"
            value={d.interval_s}
            error={f.interval_s}
            onValue={(interval_s) => set({ interval_s })}
          />
        </fieldset>
        {canWrite && (
          <div class="actions">
            <button type="submit" class="primary" disabled={submit.busy}>
              {t("telemetry:save")}
            </button>
            {config?.enabled && (
              <button type="button" disabled={submit.busy} onClick={pollNow}>
                {t("telemetry:pollNow")}
              </button>
            )}
          </div>
        )}
      </form>
    </section>
  );
}
