// What an administrator can do with the vault (admin:vault): record this process's key as the
// installation's while none is recorded, re-encrypt every secret once a new key is loaded beside the old
// one (a rotation is pending), and a self-test. Both changes ask first, saying what they do and what
// must already be in place; the server refuses them (409) when they do not apply.
import { useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice } from "../components/field.tsx";
import { useT } from "../i18n/use-t.ts";

type VaultState = paths["/api/v1/health/vault"]["get"]["responses"][200]["content"]["application/json"];

export function VaultActions({ vault, onChange }: { vault: VaultState; onChange: () => void }) {
  const t = useT();
  const session = useSession();
  const act = useSubmit();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | undefined>();
  if (!session.can("admin:vault")) return null;

  const change = (path: "/api/v1/admin/vault/initialize" | "/api/v1/admin/vault/rotate", note: string, done: string) =>
    confirm(note) &&
    act.run(async () => {
      setMessage(undefined);
      await ok(api.POST(path));
      setMessage({ ok: true, text: done });
      onChange();
    });
  const test = () =>
    act.run(async () => {
      setMessage(undefined);
      const out = await ok(api.POST("/api/v1/admin/vault/test"));
      setMessage({ ok: out.ok, text: out.message });
    });

  return (
    <>
      <Notice kind="error">{act.error}</Notice>
      {message && <Notice kind={message.ok ? "success" : "error"}>{message.text}</Notice>}
      <div class="actions">
        {!vault.initialized && vault.key_source !== "none" && (
          <button
            type="button"
            class="primary"
            disabled={act.busy}
            onClick={() =>
              void change("/api/v1/admin/vault/initialize", t("settings:vault.initializeNote"), t("settings:vault.initialized"))
            }
          >
            {t("settings:vault.initialize")}
          </button>
        )}
        {vault.rotation_pending && (
          <button
            type="button"
            class="primary"
            disabled={act.busy}
            onClick={() => void change("/api/v1/admin/vault/rotate", t("settings:vault.rotateNote"), t("settings:vault.rotated"))}
          >
            {t("settings:vault.rotate")}
          </button>
        )}
        <button type="button" disabled={act.busy} onClick={() => void test()}>
          {t("settings:vault.test")}
        </button>
      </div>
    </>
  );
}
