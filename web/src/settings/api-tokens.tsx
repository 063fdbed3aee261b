// API tokens: the user's own (an administrator may list everyone's), created with a label, an expiry and
// scopes no wider than the user's; the plaintext is shown once, right after creation, and never again.
import { useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice, TextInput } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { useLoad } from "../use-load.ts";
import { Table } from "./table.tsx";
import { LoadError } from "./load-error.tsx";
import { RelativeTime } from "../components/time.tsx";

type Created = paths["/api/v1/auth/api-token"]["post"]["responses"][201]["content"]["application/json"];

const SCOPE_CHOICES = ["read:*", "write:*", "delete:*", "admin:*"] as const;

export function ApiTokensSection() {
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
  const toggleScope = (scope: string, on: boolean) => setScopes((old) => (on ? [...old, scope] : old.filter((s) => s !== scope)));

  return (
    <>
      <form class="card" onSubmit={send} noValidate aria-labelledby="token-new">
        <h2 id="token-new">New API token</h2>
        <TextInput id="token-label" label="Label" value={label} error={create.fields.label} onValue={setLabel} autoComplete="off" />
        <TextInput
          id="token-days"
          label="Expires in (days)"
          inputMode="numeric"
          value={days}
          error={create.fields.expires_in_days}
          hint="Empty: never expires."
          onValue={setDays}
        />
        <fieldset class="scopes">
          <legend>Scopes (none ticked: all of yours)</legend>
          {SCOPE_CHOICES.filter((s) => session.can(s)).map((s) => (
            <label key={s} class="check">
              <input
                type="checkbox"
                checked={scopes.includes(s)}
                onChange={(e) => toggleScope(s, (e.currentTarget as HTMLInputElement).checked)}
              />{" "}
              <code>{s}</code>
            </label>
          ))}
          {create.fields.scopes && (
            <small class="field-error" role="alert">
              {create.fields.scopes}
            </small>
          )}
        </fieldset>
        <Notice kind="error">{create.error}</Notice>
        <button type="submit" class="primary" disabled={create.busy}>
          Create token
        </button>
      </form>
      {created && (
        <div class="card secret-once" role="status" aria-labelledby="token-once">
          <h2 id="token-once">Token "{created.label}" created</h2>
          <p>Copy it now: it is shown this once and cannot be read again.</p>
          <p>
            <code class="secret" data-testid="new-token">
              {created.token}
            </code>
          </p>
          <div class="actions">
            <button type="button" onClick={() => void navigator.clipboard?.writeText(created.token)}>
              Copy
            </button>
            <button type="button" onClick={() => setCreated(undefined)}>
              I have copied it
            </button>
          </div>
        </div>
      )}
      <div class="page-head">
        <h2>Tokens</h2>
        {isAdmin && (
          <label class="check">
            <input type="checkbox" checked={everyone} onChange={(e) => setEveryone((e.currentTarget as HTMLInputElement).checked)} />{" "}
            Everyone's
          </label>
        )}
      </div>
      <LoadError error={tokens.error} what="API tokens" />
      <Notice kind="error">{revoke.error}</Notice>
      {tokens.data?.length === 0 && <p class="empty">No API tokens yet.</p>}
      <Table
        caption="API tokens"
        columns={["Label", "Prefix", ...(everyone ? ["Owner"] : []), "Scopes", "Expires", "Last used", "State"]}
        actions
      >
        {tokens.data?.map((t) => {
          const state = t.revoked_at ? "revoked" : t.expired ? "expired" : "active";
          return (
            <tr key={t.id} data-token={t.id}>
              <td data-label="Label">{t.label}</td>
              <td data-label="Prefix">
                <code>{t.prefix}…</code>
              </td>
              {everyone && <td data-label="Owner">{t.email}</td>}
              <td data-label="Scopes">{t.scopes.join(", ")}</td>
              <td data-label="Expires">
                <RelativeTime at={t.expires_at} />
              </td>
              <td data-label="Last used">
                <RelativeTime at={t.last_used_at} />
              </td>
              <td data-label="State">
                <Status value={state} />
              </td>
              <td>
                {state === "active" && (
                  <button
                    type="button"
                    class="danger"
                    disabled={revoke.busy}
                    onClick={() =>
                      confirm(`Revoke the token "${t.label}"? Anything using it stops working.`) &&
                      void revoke.run(async () => {
                        await ok(api.DELETE("/api/v1/auth/api-tokens/{token_id}", { params: { path: { token_id: String(t.id) } } }));
                        tokens.reload();
                      })
                    }
                  >
                    Revoke
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
