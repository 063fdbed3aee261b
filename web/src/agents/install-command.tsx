// "Add a host": the one line an administrator runs on a Linux host to install, verify and enroll the
// agent (GET /agents/install-command; docs/agents.md, Installing on a host), with a Copy button. The
// server answers with the command for its own URL and TLS mode; without builds or a release key the
// script it names refuses to install, and the server says why when asked for the script.
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { Notice } from "../components/field.tsx";
import { useLoad } from "../use-load.ts";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

const MODE_NOTE: Record<string, string> = {
  public: i18nKey("agents:install.public"),
  self_signed: i18nKey("agents:install.selfSigned"),
  none: i18nKey("agents:install.none"),
};

export function InstallCommand() {
  const t = useT();
  const install = useLoad(() => ok(api.GET("/api/v1/agents/install-command")), []);
  return (
    <section class="card" aria-labelledby="install-title">
      <h2 id="install-title">{t("agents:install.title")}</h2>
      <p>{t("agents:install.text")}</p>
      {install.error !== undefined && <Notice kind="error">{messageOf(install.error)}</Notice>}
      {install.data && (
        <>
          <pre>
            <code data-testid="install-command">{install.data.command}</code>
          </pre>
          <p class="meta">
            {MODE_NOTE[install.data.tls_mode] ? t(MODE_NOTE[install.data.tls_mode]!) : ""} {t("agents:install.sha")}{" "}
            <code>{install.data.script_sha256}</code>.
          </p>
          <div class="actions">
            <button type="button" onClick={() => void navigator.clipboard?.writeText(install.data!.command)}>
              {t("agents:install.copy")}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
