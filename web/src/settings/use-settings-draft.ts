// A settings section's form state: its keys read from GET /settings, an editable draft of them, and a save
// that reloads the stored values (so `*_set` flags follow) and says it is saved. One place for what the
// SMTP, ACME DNS and firewall sections share; each gives how to read its keys and how to write them.
import { useEffect, useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { useLoad } from "../use-load.ts";

export function useSettingsDraft<Stored, Draft>(pick: (all: unknown) => Stored, draftOf: (stored: Stored) => Draft) {
  const settings = useLoad(async () => pick(await ok(api.GET("/api/v1/settings"))), []);
  const [draft, setDraft] = useState<Draft | undefined>();
  useEffect(() => settings.data && setDraft(draftOf(settings.data)), [settings.data]);
  const save = useSubmit();
  const [saved, setSaved] = useState(false);
  const set = (patch: Partial<Draft>) => setDraft((old) => (old ? { ...old, ...patch } : old));
  /** The form's submit handler: `write` sends the draft; on success the stored values are read again. */
  const submit = (write: (draft: Draft) => Promise<unknown>) => (e: Event) => {
    e.preventDefault();
    if (!draft) return;
    setSaved(false);
    void save.run(async () => {
      await write(draft);
      setSaved(true);
      settings.reload();
    });
  };
  return { settings, draft, set, save, saved, submit };
}

/** A port as typed: empty is null, a whole number is a number, anything else goes as typed so the server's 422 names it. */
export const typedPort = (port: string): number | null =>
  port.trim() === "" ? null : Number.isInteger(Number(port)) ? Number(port) : (port as unknown as number);
