// The roles: the built-in ones read-only, custom ones created, changed in place (name, description,
// scopes; a rename moves its users along) and deleted (the API's 409 names the users still holding it).
// Scopes are the grantable ones (GET /auth/scopes) or narrower `<action>:<resource>` ones, never wider
// than the administrator's own.
import { useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice, TextInput } from "../components/field.tsx";
import { useLoad } from "../use-load.ts";
import { Table } from "./table.tsx";
import { useT } from "../i18n/use-t.ts";

export type Role = paths["/api/v1/settings/roles"]["get"]["responses"][200]["content"]["application/json"][number];
const list = (s: string) =>
  s
    .split(/[\s,]+/)
    .map((x) => x.trim())
    .filter(Boolean);

function RoleForm({ role, hint, onDone, onCancel }: { role?: Role; hint: string; onDone: () => void; onCancel?: () => void }) {
  const t = useT();
  const [name, setName] = useState(role?.name ?? "");
  const [description, setDescription] = useState(role?.description ?? "");
  const [scopes, setScopes] = useState(role?.scopes.join(" ") ?? "");
  const submit = useSubmit();
  const id = role ? `role-${role.id}` : "role-new";
  const send = (e: Event) => {
    e.preventDefault();
    void submit.run(async () => {
      const body = { name: name.trim(), description: description.trim() || null, scopes: list(scopes) };
      if (role) await ok(api.PUT("/api/v1/settings/roles/{role_id}", { params: { path: { role_id: String(role.id) } }, body }));
      else {
        await ok(api.POST("/api/v1/settings/roles", { body }));
        setName("");
        setDescription("");
        setScopes("");
      }
      onDone();
    });
  };
  return (
    <form class="card" onSubmit={send} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{role ? t("settings:roles.edit", { name: role.name }) : t("settings:roles.new")}</h3>
      <TextInput
        id={`${id}-name`}
        label={t("settings:roles.name")}
        autoComplete="off"
        hint={t("settings:roles.name.hint")}
        value={name}
        error={submit.fields.name}
        onValue={setName}
      />
      <TextInput
        id={`${id}-description`}
        label={t("settings:roles.description")}
        value={description}
        error={submit.fields.description}
        onValue={setDescription}
      />
      <TextInput
        id={`${id}-scopes`}
        label={t("settings:roles.scopes")}
        // i18n-ignore: example scopes
        placeholder="read:* write:hardware"
        hint={hint}
        value={scopes}
        error={submit.fields.scopes}
        onValue={setScopes}
      />
      <Notice kind="error">{submit.error}</Notice>
      <div class="actions">
        <button type="submit" class={role ? "primary" : ""} disabled={submit.busy}>
          {role ? t("settings:roles.save") : t("settings:roles.create")}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            {t("common:cancel")}
          </button>
        )}
      </div>
    </form>
  );
}

export function CustomRoles({ roles, onChange }: { roles: readonly Role[] | undefined; onChange: () => void }) {
  const t = useT();
  const session = useSession();
  const canEdit = session.can("admin:*");
  const grantable = useLoad(() => ok(api.GET("/api/v1/auth/scopes")), []);
  const [editing, setEditing] = useState<number | undefined>();
  const act = useSubmit();
  const hint = t("settings:roles.scopes.hint", {
    scopes: grantable.data ? grantable.data.scopes.map((s) => s.scope).join(", ") : "read:*, write:*, delete:*, admin:*",
  });
  const remove = (r: Role) =>
    confirm(t("settings:roles.confirmDelete", { name: r.name })) &&
    act.run(async () => {
      await ok(api.DELETE("/api/v1/settings/roles/{role_id}", { params: { path: { role_id: String(r.id) } } }));
      onChange();
    });
  const edited = roles?.find((r) => r.id !== null && r.id === editing);
  return (
    <>
      <Notice kind="error">{act.error}</Notice>
      <Table
        caption={t("settings:roles.caption")}
        columns={[t("settings:roles.role"), t("settings:roles.scopes"), t("settings:roles.kind")]}
        actions={canEdit}
        compact
      >
        {roles?.map((r) => (
          <tr key={r.name} data-role={r.name}>
            <td data-label={t("settings:roles.role")}>
              {r.name}
              {r.description && <div class="meta">{r.description}</div>}
            </td>
            <td data-label={t("settings:roles.scopes")}>
              <code>{r.scopes.join(" ")}</code>
            </td>
            <td data-label={t("settings:roles.kind")}>{r.built_in ? t("settings:roles.builtIn") : t("settings:roles.custom")}</td>
            {canEdit && (
              <td>
                {!r.built_in && r.id !== null && (
                  <span class="actions">
                    <button
                      type="button"
                      disabled={act.busy}
                      aria-expanded={editing === r.id}
                      onClick={() => setEditing(editing === r.id ? undefined : r.id!)}
                    >
                      {t("settings:edit")}
                    </button>
                    <button type="button" class="danger" disabled={act.busy} onClick={() => void remove(r)}>
                      {t("settings:delete")}
                    </button>
                  </span>
                )}
              </td>
            )}
          </tr>
        ))}
      </Table>
      {canEdit && edited && (
        <RoleForm
          key={edited.id}
          role={edited}
          hint={hint}
          onCancel={() => setEditing(undefined)}
          onDone={() => {
            setEditing(undefined);
            onChange();
          }}
        />
      )}
      {canEdit && !edited && <RoleForm hint={hint} onDone={onChange} />}
    </>
  );
}
