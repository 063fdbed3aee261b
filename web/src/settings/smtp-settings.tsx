// The installation's own mail server (PATCH /settings/smtp): the password is write-only, shown as set or
// not set, kept when its input is left empty and removed only when asked. "Send a test" mails the address
// given through the saved settings (POST /settings/smtp/test?send_to=), or with no address only connects
// and logs in; the outcome is recorded and shown with the settings.
import { useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice, TextInput } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { LoadError } from "./load-error.tsx";
import { RelativeTime } from "../components/time.tsx";
import { emptySecret, type SecretDraft, SecretInput, secretPatch } from "./secret-input.tsx";
import { typedPort, useSettingsDraft } from "./use-settings-draft.ts";
import { useT } from "../i18n/use-t.ts";

type Smtp = paths["/api/v1/settings/smtp"]["patch"]["responses"][200]["content"]["application/json"];

interface Draft {
  enabled: boolean;
  host: string;
  port: string;
  username: string;
  password: SecretDraft;
  fromEmail: string;
  fromName: string;
  tls: boolean;
  verifyTls: boolean;
}

const draftOf = (s: Smtp): Draft => ({
  enabled: s.smtp_enabled,
  host: s.smtp_host ?? "",
  port: String(s.smtp_port),
  username: s.smtp_username ?? "",
  password: emptySecret,
  fromEmail: s.smtp_from_email ?? "",
  fromName: s.smtp_from_name,
  tls: s.smtp_tls,
  verifyTls: s.smtp_verify_tls,
});

export function SmtpSection() {
  // Any reader of the settings sees them; only an administrator changes or tests them.
  const t = useT();
  const canEdit = useSession().can("admin:*");
  // GET /settings carries the SMTP keys (read shape of PATCH /settings/smtp) among the others.
  const { settings, draft: d, set, save, saved, submit } = useSettingsDraft((all) => all as Smtp, draftOf);
  const test = useSubmit();
  const [sendTo, setSendTo] = useState("");
  const [outcome, setOutcome] = useState<{ status: "ok" | "error"; message: string } | undefined>();

  const send = submit((d) =>
    ok(
      api.PATCH("/api/v1/settings/smtp", {
        body: {
          smtp_enabled: d.enabled,
          smtp_host: d.host.trim() || null,
          smtp_port: typedPort(d.port),
          smtp_username: d.username.trim() || null,
          ...secretPatch("smtp_password", d.password),
          smtp_from_email: d.fromEmail.trim() || null,
          smtp_from_name: d.fromName.trim() || null,
          smtp_tls: d.tls,
          smtp_verify_tls: d.verifyTls,
        },
      }),
    ),
  );
  const runTest = () =>
    test.run(async () => {
      setOutcome(undefined);
      setOutcome(await ok(api.POST("/api/v1/settings/smtp/test", { params: { query: sendTo.trim() ? { send_to: sendTo.trim() } : {} } })));
      settings.reload();
    });

  if (settings.error !== undefined) return <LoadError error={settings.error} what={t("settings:smtp.what")} />;
  const stored = settings.data;
  if (!stored || !d) return <p aria-busy="true">{t("common:loading")}</p>;
  return (
    <>
      <form class="card" onSubmit={send} noValidate aria-labelledby="smtp-title">
        <h2 id="smtp-title">{t("settings:section.smtp")}</h2>
        <p class="meta">{t("settings:smtp.intro")}</p>
        <fieldset class="plain" disabled={!canEdit}>
          <label class="check row">
            <input type="checkbox" checked={d.enabled} onChange={() => set({ enabled: !d.enabled })} /> {t("settings:smtp.enabled")}
          </label>
          <TextInput
            id="smtp-host"
            label={t("settings:smtp.server")}
            // i18n-ignore: an example host name
            placeholder="mail.example.com"
            value={d.host}
            error={save.fields.smtp_host}
            onValue={(host) => set({ host })}
          />
          <TextInput
            id="smtp-port"
            label={t("settings:port")}
            inputMode="numeric"
            hint={t("settings:smtp.port.hint")}
            value={d.port}
            error={save.fields.smtp_port}
            onValue={(port) => set({ port })}
          />
          <label class="check row">
            <input type="checkbox" checked={d.tls} onChange={() => set({ tls: !d.tls })} /> {t("settings:smtp.starttls")}
          </label>
          <label class="check row">
            <input type="checkbox" checked={d.verifyTls} onChange={() => set({ verifyTls: !d.verifyTls })} /> {t("settings:smtp.verifyTls")}
          </label>
          <TextInput
            id="smtp-username"
            label={t("settings:smtp.username")}
            autoComplete="off"
            value={d.username}
            error={save.fields.smtp_username}
            onValue={(username) => set({ username })}
          />
          <SecretInput
            id="smtp-password"
            label={t("settings:smtp.password")}
            stored={stored.smtp_password_set}
            draft={d.password}
            error={save.fields.smtp_password}
            onDraft={(password) => set({ password })}
          />
          <TextInput
            id="smtp-from-email"
            label={t("settings:smtp.fromEmail")}
            type="email"
            value={d.fromEmail}
            error={save.fields.smtp_from_email}
            onValue={(fromEmail) => set({ fromEmail })}
          />
          <TextInput
            id="smtp-from-name"
            label={t("settings:smtp.fromName")}
            value={d.fromName}
            error={save.fields.smtp_from_name}
            onValue={(fromName) => set({ fromName })}
          />
        </fieldset>
        <Notice kind="error">{save.error}</Notice>
        <Notice kind="success">{saved ? t("settings:smtp.saved") : undefined}</Notice>
        {canEdit && (
          <button type="submit" class="primary" disabled={save.busy}>
            {t("settings:smtp.save")}
          </button>
        )}
      </form>
      {canEdit && (
        <section class="card" aria-labelledby="smtp-test-title">
          <h2 id="smtp-test-title">{t("settings:smtp.testTitle")}</h2>
          <p class="meta">
            {t("settings:smtp.lastTest")}{" "}
            {stored.smtp_last_test_status ? (
              <Status value={stored.smtp_last_test_status === "ok" ? "ok" : "failed"} />
            ) : (
              t("settings:smtp.never")
            )}{" "}
            <RelativeTime at={stored.smtp_last_test_at} />
          </p>
          <TextInput
            id="smtp-send-to"
            label={t("settings:smtp.sendTo")}
            type="email"
            hint={t("settings:smtp.sendTo.hint")}
            value={sendTo}
            error={test.fields.send_to}
            onValue={setSendTo}
          />
          <Notice kind="error">{test.error}</Notice>
          {outcome && <Notice kind={outcome.status === "ok" ? "success" : "error"}>{outcome.message}</Notice>}
          <button type="button" disabled={test.busy} onClick={() => void runTest()}>
            {sendTo.trim() ? t("settings:smtp.sendTest") : t("settings:smtp.checkConnection")}
          </button>
        </section>
      )}
    </>
  );
}
