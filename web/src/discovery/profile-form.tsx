// A discovery profile's form, for a new profile (POST) or one changed in place (PATCH with the form's
// fields; the server checks them against the profile as it would be stored). The API's 422s land on
// their fields: targets, exclude, scan_types, tcp_ports, schedule_cron.
import { useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice, TextInput } from "../components/field.tsx";
import { useT } from "../i18n/use-t.ts";

export type Profile = paths["/api/v1/discovery/profiles"]["get"]["responses"][200]["content"]["application/json"]["items"][number];

// The probes the server's engine runs on addresses (docker, opnsense and agent scans need their own setup).
const PROBES = ["icmp", "tcp", "dns", "arp", "banner", "http"] as const;
const list = (s: string) =>
  s
    .split(/[\s,]+/)
    .map((x) => x.trim())
    .filter(Boolean);

interface Draft {
  name: string;
  targets: string;
  exclude: string;
  ports: string;
  cron: string;
  enabled: boolean;
  probes: Set<string>;
}

const draftOf = (p: Profile | undefined): Draft => ({
  name: p?.name ?? "",
  targets: p?.targets.join(", ") ?? "",
  exclude: p?.exclude.join(", ") ?? "",
  ports: p?.tcp_ports.join(", ") ?? "22, 80, 443",
  cron: p?.schedule_cron ?? "",
  enabled: p?.enabled ?? true,
  probes: new Set(p?.scan_types ?? ["icmp", "tcp", "dns"]),
});

export function ProfileForm({ profile, onDone, onCancel }: { profile?: Profile; onDone: (p: Profile) => void; onCancel?: () => void }) {
  const t = useT();
  const [d, setD] = useState<Draft>(() => draftOf(profile));
  const submit = useSubmit();
  const id = profile ? `profile-${profile.id}` : "profile-new";
  const set = (patch: Partial<Draft>) => setD((old) => ({ ...old, ...patch }));
  // A profile made through the API may use types this form does not offer (nmap, snmp, docker...): they
  // are shown and kept, so an edit never drops them unasked.
  const offered = [...new Set([...PROBES, ...(profile?.scan_types ?? [])])];

  const send = (e: Event) => {
    e.preventDefault();
    void submit.run(async () => {
      // A port that is not a number goes as typed, so the server's 422 names it.
      const ports = list(d.ports).map((p) => (Number.isInteger(Number(p)) ? Number(p) : p)) as number[];
      const body = {
        name: d.name.trim(),
        targets: list(d.targets),
        exclude: list(d.exclude),
        scan_types: offered.filter((p) => d.probes.has(p)),
        tcp_ports: ports,
        schedule_cron: d.cron.trim() || null,
        enabled: d.enabled,
      };
      const saved = profile
        ? await ok(api.PATCH("/api/v1/discovery/profiles/{profile_id}", { params: { path: { profile_id: String(profile.id) } }, body }))
        : await ok(api.POST("/api/v1/discovery/profiles", { body }));
      if (!profile) setD(draftOf(undefined));
      onDone(saved);
    });
  };

  return (
    <form class="card" onSubmit={send} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{profile ? t("discovery:profile.edit", { name: profile.name }) : t("discovery:profile.new")}</h2>
      <TextInput
        id={`${id}-name`}
        label={t("discovery:profile.name")}
        autoComplete="off"
        value={d.name}
        error={submit.fields.name}
        onValue={(name) => set({ name })}
      />
      <TextInput
        id={`${id}-targets`}
        label={t("discovery:scan.targets")}
        placeholder="192.168.1.0/24, 10.0.0.5-10.0.0.20"
        hint={t("discovery:scan.targetsHint")}
        value={d.targets}
        error={submit.fields.targets ?? submit.fields.cidr}
        onValue={(targets) => set({ targets })}
      />
      <TextInput
        id={`${id}-exclude`}
        label={t("discovery:profile.exclude")}
        value={d.exclude}
        error={submit.fields.exclude}
        onValue={(exclude) => set({ exclude })}
      />
      <fieldset class="probes" aria-describedby={submit.fields.scan_types ? `${id}-probes-error` : undefined}>
        <legend>{t("discovery:scan.probes")}</legend>
        {offered.map((p) => (
          <label key={p} class="check">
            <input
              type="checkbox"
              checked={d.probes.has(p)}
              onChange={() => set({ probes: d.probes.has(p) ? new Set([...d.probes].filter((x) => x !== p)) : new Set([...d.probes, p]) })}
            />{" "}
            {p}
          </label>
        ))}
        {submit.fields.scan_types && (
          <small id={`${id}-probes-error`} class="field-error" role="alert">
            {submit.fields.scan_types}
          </small>
        )}
      </fieldset>
      <TextInput
        id={`${id}-ports`}
        label={t("discovery:scan.ports")}
        hint={t("discovery:profile.portsHint")}
        value={d.ports}
        error={submit.fields.tcp_ports}
        onValue={(ports) => set({ ports })}
      />
      <TextInput
        id={`${id}-cron`}
        label={t("discovery:profile.schedule")}
        placeholder="0 3 * * *"
        hint={t("discovery:profile.scheduleHint")}
        value={d.cron}
        error={submit.fields.schedule_cron}
        onValue={(cron) => set({ cron })}
      />
      <label class="check row">
        <input type="checkbox" checked={d.enabled} onChange={() => set({ enabled: !d.enabled })} /> {t("discovery:profile.enabled")}
      </label>
      <Notice kind="error">{submit.error}</Notice>
      <div class="actions">
        <button type="submit" class="primary" disabled={submit.busy}>
          {profile ? t("discovery:profile.save") : t("discovery:profile.create")}
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
