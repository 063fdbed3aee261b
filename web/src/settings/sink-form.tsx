// A new notification sink: its provider type, then one input per key that provider takes (from the same
// table the server validates with, shared/domain/notifications/providers.ts). The API's messages land on
// the key they name (`provider_config.<key>`). A webhook given no secret gets one, shown once.
import { useState } from "preact/hooks";
import { PROVIDER_TYPES, PROVIDERS, type ProviderType } from "../../../shared/domain/notifications/providers.ts";
import { api, ok } from "../api/client.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice, TextInput } from "../components/field.tsx";

/** The typed value of one config input: numbers and booleans as such, an empty input left out. */
function configValue(kind: string, raw: string): unknown {
  const v = raw.trim();
  if (v === "") return undefined;
  if (kind === "port" || kind === "priority") return Number.isFinite(Number(v)) ? Number(v) : v;
  if (kind === "bool") return v === "true";
  return v;
}

export function SinkForm({ onCreated }: { onCreated: (secret: string | undefined) => void }) {
  const [name, setName] = useState("");
  const [type, setType] = useState<ProviderType>("webhook");
  const [config, setConfig] = useState<Record<string, string>>({});
  const submit = useSubmit();
  const fields = PROVIDERS[type];

  const send = (e: Event) => {
    e.preventDefault();
    void submit.run(async () => {
      const provider_config: Record<string, unknown> = {};
      for (const [key, f] of Object.entries(fields)) {
        const v = configValue(f.kind, config[key] ?? "");
        if (v !== undefined) provider_config[key] = v;
      }
      const sink = await ok(api.POST("/api/v1/notifications/sinks", { body: { name: name.trim(), provider_type: type, provider_config } }));
      setName("");
      setConfig({});
      onCreated(sink.secret);
    });
  };

  return (
    <form class="card" onSubmit={send} noValidate aria-labelledby="sink-new">
      <h2 id="sink-new">New sink</h2>
      <TextInput id="sink-name" label="Name" value={name} error={submit.fields.name} onValue={setName} autoComplete="off" />
      <Field id="sink-type" label="Provider" error={submit.fields.provider_type}>
        {(a11y) => (
          <select {...a11y} value={type} onChange={(e) => setType((e.currentTarget as HTMLSelectElement).value as ProviderType)}>
            {PROVIDER_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
        )}
      </Field>
      {Object.entries(fields).map(([key, f]) => {
        const id = `sink-${key}`;
        const label = `${key.replace(/_/g, " ")}${f.required ? "" : " (optional)"}`;
        const error = submit.fields[`provider_config.${key}`];
        const set = (v: string) => setConfig((old) => ({ ...old, [key]: v }));
        if (f.kind === "bool")
          return (
            <Field key={`${type}-${key}`} id={id} label={label} error={error}>
              {(a11y) => (
                <select {...a11y} value={config[key] ?? ""} onChange={(e) => set((e.currentTarget as HTMLSelectElement).value)}>
                  <option value="">Default</option>
                  <option value="true">yes</option>
                  <option value="false">no</option>
                </select>
              )}
            </Field>
          );
        return (
          <TextInput
            key={`${type}-${key}`}
            id={id}
            label={label}
            type={f.secret ? "password" : "text"}
            autoComplete="off"
            value={config[key] ?? ""}
            error={error}
            onValue={set}
            {...(type === "webhook" && key === "secret" ? { hint: "Empty: one is generated and shown once." } : {})}
          />
        );
      })}
      <Notice kind="error">{submit.fields.provider_config ? undefined : submit.error}</Notice>
      {submit.fields.provider_config && <Notice kind="error">The sink's settings need fixing (see the fields above).</Notice>}
      <button type="submit" class="primary" disabled={submit.busy}>Create sink</button>
    </form>
  );
}
