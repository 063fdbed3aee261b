// Sign-in providers (GET/PATCH /settings/oauth, docs/oauth.md): the list with each one's callback URL,
// add, edit in place, enable/disable and delete (a provider set to null). Readers of the settings see
// the list; only an administrator changes it.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { useLoad } from "../use-load.ts";
import { LoadError } from "./load-error.tsx";
import { callbackPath, OAuthProviderForm, PRESETS } from "./oauth-provider-form.tsx";
import { Table } from "./table.tsx";

export function OAuthSection() {
  const canEdit = useSession().can("admin:*");
  const oauth = useLoad(() => ok(api.GET("/api/v1/settings/oauth")), []);
  // The callback URLs are built from the public_url setting (else PUBLIC_URL, which the browser cannot see).
  // Only an administrator's read of the settings carries public_url (a viewer's has rate_limit_profile only).
  const settings = useLoad(() => (canEdit ? ok(api.GET("/api/v1/settings")) : Promise.resolve(undefined)), [canEdit]);
  const roles = useLoad(() => (canEdit ? ok(api.GET("/api/v1/settings/roles")) : Promise.resolve([])), [canEdit]);
  const [editing, setEditing] = useState<string | undefined>();
  const act = useSubmit();
  const publicUrl = typeof settings.data?.public_url === "string" ? settings.data.public_url.replace(/\/+$/, "") : "";
  const base = publicUrl || location.origin;

  const patch = (name: string, body: { enabled: boolean } | null) =>
    act.run(async () => {
      await ok(api.PATCH("/api/v1/settings/oauth", { body: { providers: { [name]: body } } }));
      oauth.reload();
    });
  const remove = (name: string) =>
    confirm(`Delete the sign-in provider "${name}"? Its users keep their accounts but cannot sign in through it.`) && patch(name, null);

  if (oauth.error !== undefined) return <LoadError error={oauth.error} what="the sign-in providers" />;
  if (!oauth.data) return <p aria-busy="true">Loading…</p>;
  const list = Object.entries(oauth.data.providers);
  const roleNames = roles.data?.map((r) => r.name) ?? [];
  const saved = () => {
    setEditing(undefined);
    oauth.reload();
  };
  return (
    <>
      {canEdit && !publicUrl && (
        <Notice kind="info">
          No public URL is set in General: the callback URLs below use this page's address, and sign-in through a provider needs the
          public_url setting or PUBLIC_URL.
        </Notice>
      )}
      {canEdit && <OAuthProviderForm roles={roleNames} base={base} onSaved={saved} />}
      <h2>Sign-in providers</h2>
      <Notice kind="error">{act.error}</Notice>
      {list.length === 0 && <p class="empty">No providers: everyone signs in with a password.</p>}
      <Table caption="Sign-in providers" columns={["Name", "Kind", "Client", "Callback URL", "New users", "State"]} actions={canEdit}>
        {list.map(([name, p]) => (
          <tr key={name} data-provider={name}>
            <td data-label="Name">{p.label ? `${p.label} (${name})` : name}</td>
            <td data-label="Kind">
              {PRESETS.find((x) => x.type === p.type)?.label ?? p.type}
              {p.issuer ? <div class="meta">{p.issuer}</div> : null}
            </td>
            <td data-label="Client" class="meta">
              {p.client_id ?? "no client id"}; secret {p.client_secret_set ? "set" : "not set"}
            </td>
            <td data-label="Callback URL">
              <code>
                {base}
                {callbackPath(name, p.type)}
              </code>
            </td>
            <td data-label="New users">{p.allow_registration ? `registered as ${p.default_role}` : "refused"}</td>
            <td data-label="State">
              <Status value={p.enabled ? "active" : "paused"} />
            </td>
            {canEdit && (
              <td class="actions">
                <button
                  type="button"
                  disabled={act.busy}
                  aria-expanded={editing === name}
                  onClick={() => setEditing(editing === name ? undefined : name)}
                >
                  Edit
                </button>
                <button type="button" disabled={act.busy} onClick={() => void patch(name, { enabled: !p.enabled })}>
                  {p.enabled ? "Disable" : "Enable"}
                </button>
                <button type="button" class="danger" disabled={act.busy} onClick={() => void remove(name)}>
                  Delete
                </button>
              </td>
            )}
          </tr>
        ))}
      </Table>
      {canEdit && editing !== undefined && oauth.data.providers[editing] && (
        <OAuthProviderForm
          key={editing}
          name={editing}
          provider={oauth.data.providers[editing]}
          roles={roleNames}
          base={base}
          onSaved={saved}
          onCancel={() => setEditing(undefined)}
        />
      )}
    </>
  );
}
