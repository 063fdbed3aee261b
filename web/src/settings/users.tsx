// Users and roles: every user with their role (changed in place) and whether they may sign in
// (deactivate / reactivate), a local user created with a first password or invited by email (the invite
// link shown once), and the roles with their scopes (custom ones edited in custom-roles.tsx).
// Administrators only: the API refuses the rest.
import { useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice, TextInput } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { useLoad } from "../use-load.ts";
import { CustomRoles } from "./custom-roles.tsx";
import { Table } from "./table.tsx";
import { LoadError } from "./load-error.tsx";
import { RelativeTime } from "../components/time.tsx";
import { useT } from "../i18n/use-t.ts";

type Invite = paths["/api/v1/admin/invites"]["post"]["responses"][201]["content"]["application/json"];

function RoleSelect({
  roles,
  value,
  onValue,
  a11y,
}: {
  roles: readonly string[];
  value: string;
  onValue: (v: string) => void;
  a11y: Record<string, unknown>;
}) {
  return (
    <select {...a11y} value={value} onChange={(e) => onValue((e.currentTarget as HTMLSelectElement).value)}>
      {roles.map((r) => (
        <option key={r} value={r}>
          {r}
        </option>
      ))}
    </select>
  );
}

function NewUser({ roles, onDone }: { roles: readonly string[]; onDone: () => void }) {
  const t = useT();
  const [mode, setMode] = useState<"invite" | "create">("invite");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState("viewer");
  const [invite, setInvite] = useState<Invite | undefined>();
  const submit = useSubmit();
  const send = (e: Event) => {
    e.preventDefault();
    setInvite(undefined);
    void submit.run(async () => {
      if (mode === "invite") setInvite(await ok(api.POST("/api/v1/admin/invites", { body: { email: email.trim(), role } })));
      else await ok(api.POST("/api/v1/admin/users", { body: { email: email.trim(), password, role, must_change_password: true } }));
      setEmail("");
      setPassword("");
      onDone();
    });
  };
  return (
    <form class="card" onSubmit={send} noValidate aria-labelledby="user-new">
      <h2 id="user-new">{t("settings:users.add")}</h2>
      <fieldset class="choice">
        <legend>{t("settings:users.how")}</legend>
        <label class="check">
          <input type="radio" name="user-mode" checked={mode === "invite"} onChange={() => setMode("invite")} />{" "}
          {t("settings:users.invite")}
        </label>
        <label class="check">
          <input type="radio" name="user-mode" checked={mode === "create"} onChange={() => setMode("create")} />{" "}
          {t("settings:users.createWith")}
        </label>
      </fieldset>
      <TextInput
        id="user-email"
        label={t("settings:users.email")}
        type="email"
        autoComplete="off"
        value={email}
        error={submit.fields.email}
        onValue={setEmail}
      />
      {mode === "create" && (
        <TextInput
          id="user-password"
          label={t("settings:users.firstPassword")}
          type="password"
          autoComplete="new-password"
          hint={t("settings:users.firstPassword.hint")}
          value={password}
          error={submit.fields.password}
          onValue={setPassword}
        />
      )}
      <Field id="user-role" label={t("settings:roles.role")} error={submit.fields.role}>
        {(a11y) => <RoleSelect roles={roles} value={role} onValue={setRole} a11y={a11y} />}
      </Field>
      <Notice kind="error">{submit.error}</Notice>
      <button type="submit" class="primary" disabled={submit.busy}>
        {mode === "invite" ? t("settings:users.sendInvite") : t("settings:users.create")}
      </button>
      {invite && (
        <div class="secret-once" role="status">
          <p>
            {t("settings:users.inviteFor", { email: invite.email, role: invite.role })} <RelativeTime at={invite.expires_at} />
            {t("settings:users.inviteLink")}
          </p>
          <p>
            <code class="secret">{invite.invite_url}</code>
          </p>
        </div>
      )}
    </form>
  );
}

export function UsersSection() {
  const t = useT();
  const session = useSession();
  const users = useLoad(() => ok(api.GET("/api/v1/admin/users", { params: { query: { limit: "100", sort: "email" } } })), []);
  const roles = useLoad(() => ok(api.GET("/api/v1/settings/roles")), []);
  const act = useSubmit();
  const roleNames = roles.data?.map((r) => r.name) ?? ["viewer", "editor", "admin"];
  const change = (id: number, body: { role?: string; is_active?: boolean }) =>
    act.run(async () => {
      await ok(api.PATCH("/api/v1/admin/users/{user_id}", { params: { path: { user_id: String(id) } }, body }));
      users.reload();
    });

  return (
    <>
      {users.error === undefined && <NewUser roles={roleNames} onDone={() => users.reload()} />}
      <h2>{t("settings:users.title")}</h2>
      <LoadError error={users.error} what={t("settings:users.what")} />
      <Notice kind="error">{act.error}</Notice>
      {users.data && (
        <Table
          caption={t("settings:users.title")}
          columns={[
            t("settings:users.email"),
            t("settings:name"),
            t("settings:roles.role"),
            t("settings:users.mfa"),
            t("settings:users.lastSignIn"),
            t("settings:tokens.state"),
          ]}
          actions
        >
          {users.data.items.map((u) => {
            const self = u.id === session.user.id;
            return (
              <tr key={u.id} data-user={u.id}>
                <td data-label={t("settings:users.email")}>{u.email}</td>
                <td data-label={t("settings:name")}>{u.display_name ?? "—"}</td>
                <td data-label={t("settings:roles.role")}>
                  {self ? (
                    u.role
                  ) : (
                    <RoleSelect
                      roles={roleNames.includes(u.role) ? roleNames : [u.role, ...roleNames]}
                      value={u.role}
                      onValue={(role) => void change(u.id, { role })}
                      a11y={{ "aria-label": t("settings:users.roleOf", { email: u.email }), disabled: act.busy }}
                    />
                  )}
                </td>
                <td data-label={t("settings:users.mfa")}>{u.mfa_enabled ? t("settings:users.on") : t("settings:users.off")}</td>
                <td data-label={t("settings:users.lastSignIn")}>
                  <RelativeTime at={u.last_login_at} />
                </td>
                <td data-label={t("settings:tokens.state")}>
                  <Status value={u.is_active ? "active" : "stopped"} />
                </td>
                <td>
                  {!self && (
                    <button
                      type="button"
                      class={u.is_active ? "danger" : ""}
                      disabled={act.busy}
                      onClick={() => void change(u.id, { is_active: !u.is_active })}
                    >
                      {u.is_active ? t("settings:users.deactivate") : t("settings:users.reactivate")}
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </Table>
      )}
      <h2>{t("settings:roles.caption")}</h2>
      <LoadError error={roles.error} what={t("settings:users.rolesWhat")} />
      {roles.error === undefined && <CustomRoles roles={roles.data} onChange={() => roles.reload()} />}
    </>
  );
}
