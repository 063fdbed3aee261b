// The scopes a new API token may be narrowed to, as ticks (none ticked: all of the user's own), for the
// token form under Account → API tokens and the CLI sign-in's approval page: only those the user holds.
import { useSession } from "../auth/session.tsx";
import { useT } from "../i18n/use-t.ts";

// The wide scopes, and the two narrow ones a service-discovery token is made for (docs/service-discovery.md):
// a Prometheus or Ansible token that can read nothing else.
const SCOPE_CHOICES = ["read:*", "write:*", "delete:*", "admin:*", "read:prometheus-sd", "read:ansible-inventory"] as const;

export function ScopeChoices({
  scopes,
  onChange,
  error,
}: {
  scopes: string[];
  onChange: (scopes: string[]) => void;
  error?: string | undefined;
}) {
  const t = useT();
  const session = useSession();
  const toggle = (scope: string, on: boolean) => onChange(on ? [...scopes, scope] : scopes.filter((s) => s !== scope));
  return (
    <fieldset class="scopes">
      <legend>{t("settings:tokens.scopes")}</legend>
      {SCOPE_CHOICES.filter((s) => session.can(s)).map((s) => (
        <label key={s} class="check">
          <input type="checkbox" checked={scopes.includes(s)} onChange={(e) => toggle(s, (e.currentTarget as HTMLInputElement).checked)} />{" "}
          <code>{s}</code>
        </label>
      ))}
      {error && (
        <small class="field-error" role="alert">
          {error}
        </small>
      )}
    </fieldset>
  );
}
