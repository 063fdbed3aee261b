// "Add a host": the one line an administrator runs on a Linux host to install, verify and enroll the
// agent (GET /agents/install-command; docs/agents.md, Installing on a host), with a Copy button. The
// server answers with the command for its own URL and TLS mode; without builds or a release key the
// script it names refuses to install, and the server says why when asked for the script.
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { Notice } from "../components/field.tsx";
import { useLoad } from "../use-load.ts";

const MODE_NOTE: Record<string, string> = {
  public: "The script is fetched over HTTPS and piped to sh.",
  self_signed: "The server's certificate is self-signed: the script is saved, checked against its SHA-256, then run.",
  none: "Plain HTTP: the script is saved, checked against its SHA-256, then run. Serve HTTPS to protect the download itself.",
};

export function InstallCommand() {
  const install = useLoad(() => ok(api.GET("/api/v1/agents/install-command")), []);
  return (
    <section class="card" aria-labelledby="install-title">
      <h2 id="install-title">Add a host</h2>
      <p>
        Run this as root on a Linux host (x86-64 or arm64). It checks the agent's release signature, installs it as a service, and prints a
        pairing code to approve above.
      </p>
      {install.error !== undefined && <Notice kind="error">{messageOf(install.error)}</Notice>}
      {install.data && (
        <>
          <pre>
            <code data-testid="install-command">{install.data.command}</code>
          </pre>
          <p class="meta">
            {MODE_NOTE[install.data.tls_mode]} Script SHA-256 <code>{install.data.script_sha256}</code>.
          </p>
          <div class="actions">
            <button type="button" onClick={() => void navigator.clipboard?.writeText(install.data!.command)}>
              Copy command
            </button>
          </div>
        </>
      )}
    </section>
  );
}
