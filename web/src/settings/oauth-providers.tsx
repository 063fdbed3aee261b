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
import { callbackPath, OAuthProviderForm, presetLabel } from "./oauth-provider-form.tsx";
import { Table } from "./table.tsx";
import { useT } from "../i18n/use-t.ts";

export function OAuthSection() {
  const t = useT();
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
  const remove = (name: string) => confirm(t("settings:oauth.confirmDelete", { name })) && patch(name, null);

  if (oauth.error !== undefined) return <LoadError error={oauth.error} what={t("settings:oauth.what")} />;
  if (!oauth.data) return <p aria-busy="true">{t("common:loading")}</p>;
  const list = Object.entries(oauth.data.providers);
  const roleNames = roles.data?.map((r) => r.name) ?? [];
  const saved = () => {
    setEditing(undefined);
    oauth.reload();
  };
  return (
    <>
      {canEdit && !publicUrl && <Notice kind="info">{t("settings:oauth.noPublicUrl")}</Notice>}
      {canEdit && <OAuthProviderForm roles={roleNames} base={base} onSaved={saved} />}
      <h2>{t("settings:section.oauth")}</h2>
      <Notice kind="error">{act.error}</Notice>
      {list.length === 0 && <p class="empty">{t("settings:oauth.empty")}</p>}
      <Table
        caption={t("settings:section.oauth")}
        columns={[
          t("settings:name"),
          t("settings:roles.kind"),
          t("settings:oauth.client"),
          t("settings:oauth.callback"),
          t("settings:oauth.newUsers"),
          t("settings:tokens.state"),
        ]}
        actions={canEdit}
      >
        {list.map(([name, p]) => (
          <tr key={name} data-provider={name}>
            <td data-label={t("settings:name")}>{p.label ? `${p.label} (${name})` : name}</td>
            <td data-label={t("settings:roles.kind")}>
              {presetLabel(p.type)}
              {p.issuer ? <div class="meta">{p.issuer}</div> : null}
            </td>
            <td data-label={t("settings:oauth.client")} class="meta">
              {p.client_id ?? t("settings:oauth.noClientId")};{" "}
              {p.client_secret_set ? t("settings:oauth.secretSet") : t("settings:oauth.secretNotSet")}
            </td>
            <td data-label={t("settings:oauth.callback")}>
              <code>
                {base}
                {callbackPath(name, p.type)}
              </code>
            </td>
            <td data-label={t("settings:oauth.newUsers")}>
              {p.allow_registration ? t("settings:oauth.registeredAs", { role: p.default_role }) : t("settings:oauth.refused")}
            </td>
            <td data-label={t("settings:tokens.state")}>
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
                  {t("settings:edit")}
                </button>
                <button type="button" disabled={act.busy} onClick={() => void patch(name, { enabled: !p.enabled })}>
                  {p.enabled ? t("settings:disable") : t("settings:enable")}
                </button>
                <button type="button" class="danger" disabled={act.busy} onClick={() => void remove(name)}>
                  {t("settings:delete")}
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
