// API tokens: the user's own (an administrator may list everyone's), created with a label, an expiry and
// scopes no wider than the user's; the plaintext is shown once, right after creation, and never again.
import { useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice, TextInput } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { useLoad } from "../use-load.ts";
import { ScopeChoices } from "./scope-choices.tsx";
import { Table } from "./table.tsx";
import { LoadError } from "./load-error.tsx";
import { RelativeTime } from "../components/time.tsx";
import { useT } from "../i18n/use-t.ts";

type Created = paths["/api/v1/auth/api-token"]["post"]["responses"][201]["content"]["application/json"];

export function ApiTokensSection() {
  const t = useT();
  const session = useSession();
  const isAdmin = session.can("admin:*");
  const [everyone, setEveryone] = useState(false);
  const tokens = useLoad(
    () => ok(api.GET("/api/v1/auth/api-tokens", { params: { query: { all: everyone ? "true" : "false" } } })),
    [everyone],
  );
  const [label, setLabel] = useState("");
  const [days, setDays] = useState("90");
  const [scopes, setScopes] = useState<string[]>([]);
  const [created, setCreated] = useState<Created | undefined>();
  const create = useSubmit();
  const revoke = useSubmit();

  const send = (e: Event) => {
    e.preventDefault();
    setCreated(undefined);
    void create.run(async () => {
      const expires = days.trim() === "" ? {} : { expires_in_days: Number(days) };
      const body = { label: label.trim(), ...expires, ...(scopes.length ? { scopes } : {}) };
      setCreated(await ok(api.POST("/api/v1/auth/api-token", { body })));
      setLabel("");
      tokens.reload();
    });
  };

  return (
    <>
      <form class="card" onSubmit={send} noValidate aria-labelledby="token-new">
        <h2 id="token-new">{t("settings:tokens.new")}</h2>
        <TextInput
          id="token-label"
          label={t("settings:tokens.label")}
          value={label}
          error={create.fields.label}
          onValue={setLabel}
          autoComplete="off"
        />
        <TextInput
          id="token-days"
          label={t("settings:tokens.days")}
          inputMode="numeric"
          value={days}
          error={create.fields.expires_in_days}
          hint={t("settings:tokens.days.hint")}
          onValue={setDays}
        />
        <ScopeChoices scopes={scopes} onChange={setScopes} error={create.fields.scopes} />
        <Notice kind="error">{create.error}</Notice>
        <button type="submit" class="primary" disabled={create.busy}>
          {t("settings:tokens.create")}
        </button>
      </form>
      {created && (
        <div class="card secret-once" role="status" aria-labelledby="token-once">
          <h2 id="token-once">{t("settings:tokens.created", { label: created.label })}</h2>
          <p>{t("settings:tokens.copyNow")}</p>
          <p>
            <code class="secret" data-testid="new-token">
              {created.token}
            </code>
          </p>
          <div class="actions">
            <button type="button" onClick={() => void navigator.clipboard?.writeText(created.token)}>
              {t("common:copy.button")}
            </button>
            <button type="button" onClick={() => setCreated(undefined)}>
              {t("settings:copiedIt")}
            </button>
          </div>
        </div>
      )}
      <div class="page-head">
        <h2>{t("settings:tokens.title")}</h2>
        {isAdmin && (
          <label class="check">
            <input type="checkbox" checked={everyone} onChange={(e) => setEveryone((e.currentTarget as HTMLInputElement).checked)} />{" "}
            {t("settings:tokens.everyone")}
          </label>
        )}
      </div>
      <LoadError error={tokens.error} what={t("settings:tokens.what")} />
      <Notice kind="error">{revoke.error}</Notice>
      {tokens.data?.length === 0 && <p class="empty">{t("settings:tokens.empty")}</p>}
      <Table
        caption={t("settings:section.tokens")}
        columns={[
          t("settings:tokens.label"),
          t("settings:tokens.prefix"),
          ...(everyone ? [t("settings:tokens.owner")] : []),
          t("settings:roles.scopes"),
          t("settings:tokens.expires"),
          t("settings:tokens.lastUsed"),
          t("settings:tokens.state"),
        ]}
        actions
      >
        {tokens.data?.map((tok) => {
          const state = tok.revoked_at ? "revoked" : tok.expired ? "expired" : "active";
          return (
            <tr key={tok.id} data-token={tok.id}>
              <td data-label={t("settings:tokens.label")}>{tok.label}</td>
              <td data-label={t("settings:tokens.prefix")}>
                <code>{tok.prefix}…</code>
              </td>
              {everyone && <td data-label={t("settings:tokens.owner")}>{tok.email}</td>}
              <td data-label={t("settings:roles.scopes")}>{tok.scopes.join(", ")}</td>
              <td data-label={t("settings:tokens.expires")}>
                <RelativeTime at={tok.expires_at} />
              </td>
              <td data-label={t("settings:tokens.lastUsed")}>
                <RelativeTime at={tok.last_used_at} />
              </td>
              <td data-label={t("settings:tokens.state")}>
                <Status value={state} />
              </td>
              <td>
                {state === "active" && (
                  <button
                    type="button"
                    class="danger"
                    disabled={revoke.busy}
                    onClick={() =>
                      confirm(t("settings:tokens.confirmRevoke", { label: tok.label })) &&
                      void revoke.run(async () => {
                        await ok(api.DELETE("/api/v1/auth/api-tokens/{token_id}", { params: { path: { token_id: String(tok.id) } } }));
                        tokens.reload();
                      })
                    }
                  >
                    {t("settings:tokens.revoke")}
                  </button>
                )}
              </td>
            </tr>
          );
        })}
      </Table>
    </>
  );
}
