// Connect a port with a cable (POST /cables): the far end's kind (only the kinds this one may join),
// its node and its port, and the cable's label, type, colour and length. A port that already holds a
// cable is refused by the API with the cable's name (409), shown here.
import { useState } from "preact/hooks";
import { anyApi, ok } from "../api/client.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice, SelectInput, TextInput } from "../components/field.tsx";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { CABLE_STATUSES, ENDPOINT_PATHS, type EndpointKind, LENGTH_UNITS } from "../../../shared/domain/cabling/endpoints.ts";
import { CABLE_STATUS_LABELS, PORT_KINDS } from "./port-kinds.ts";

type Row = Record<string, unknown>;
interface Page {
  items: Row[];
}

/** The kinds a cable from `kind` may reach (shared/domain/cabling/endpoints.ts, incompatibility). */
export function farKinds(kind: EndpointKind): EndpointKind[] {
  if (kind === "power_port") return ["power_outlet"];
  if (kind === "power_outlet") return ["power_port"];
  return ["interface", "front_port", "rear_port"];
}

export function CableForm({ from, fromName, onDone }: { from: { kind: EndpointKind; id: number }; fromName: string; onDone(): void }) {
  const t = useT();
  const submit = useSubmit();
  const kinds = farKinds(from.kind);
  const [kind, setKind] = useState<EndpointKind>(kinds[0]!);
  const [node, setNode] = useState("");
  const [port, setPort] = useState("");
  const [d, setD] = useState({ label: "", type: "", colour: "", length: "", length_unit: "m", status: "connected" });
  const nodes = useLoad(
    async () => (await ok(anyApi.GET("/api/v1/hardware", { params: { query: { limit: 100, sort: "name" } } }))) as Page,
    [],
  );
  const ports = useLoad(
    async () =>
      node === ""
        ? { items: [] }
        : ((await ok(
            anyApi.GET(`/api/v1/${ENDPOINT_PATHS[kind]}`, { params: { query: { hardware_id: node, limit: 100, sort: "name" } } }),
          )) as Page),
    [kind, node],
  );
  const f = submit.fields;
  const free = (ports.data?.items ?? []).filter((p) => p.cable_id == null && !(kind === from.kind && p.id === from.id));

  const save = (e: Event) => {
    e.preventDefault();
    void submit.run(async () => {
      await ok(
        anyApi.POST("/api/v1/cables", {
          body: {
            a_kind: from.kind,
            a_id: from.id,
            b_kind: kind,
            b_id: Number(port),
            status: d.status,
            label: d.label.trim() || null,
            type: d.type.trim() || null,
            colour: d.colour.trim() || null,
            length: d.length.trim() === "" ? null : Number(d.length),
            length_unit: d.length.trim() === "" ? null : d.length_unit,
          },
        }),
      );
      onDone();
    });
  };

  return (
    <form class="cable-form" onSubmit={save} noValidate aria-label={t("cabling:cable.formTitle", { port: fromName })}>
      <h3>{t("cabling:cable.formTitle", { port: fromName })}</h3>
      <Notice kind="error">{submit.errorBesides(["b_id", "b_kind", "label", "length"])}</Notice>
      <SelectInput
        id="cable-far-kind"
        label={t("cabling:cable.farKind")}
        value={kind}
        options={kinds.map((k) => [k, t(PORT_KINDS[k].noun)])}
        error={f.b_kind}
        onValue={(k) => {
          setKind(k as EndpointKind);
          setPort("");
        }}
      />
      <SelectInput
        id="cable-far-node"
        label={t("cabling:cable.farNode")}
        value={node}
        options={[
          ["", t("cabling:cable.choose")],
          ...(nodes.data?.items ?? []).map((n) => [String(n.id), String(n.name)] as [string, string]),
        ]}
        onValue={(n) => {
          setNode(n);
          setPort("");
        }}
      />
      <SelectInput
        id="cable-far-port"
        label={t("cabling:cable.farPort")}
        value={port}
        options={[["", t("cabling:cable.choose")], ...free.map((p) => [String(p.id), String(p.name)] as [string, string])]}
        error={f.b_id}
        onValue={setPort}
      />
      <TextInput
        id="cable-label"
        label={t("cabling:cable.label")}
        value={d.label}
        error={f.label}
        onValue={(label) => setD({ ...d, label })}
      />
      <TextInput id="cable-type" label={t("cabling:cable.type")} value={d.type} error={f.type} onValue={(type) => setD({ ...d, type })} />
      <TextInput
        id="cable-colour"
        label={t("cabling:cable.colour")}
        value={d.colour}
        error={f.colour}
        onValue={(colour) => setD({ ...d, colour })}
      />
      <TextInput
        id="cable-length"
        label={t("cabling:cable.length")}
        inputMode="decimal"
        value={d.length}
        error={f.length}
        onValue={(length) => setD({ ...d, length })}
      />
      <SelectInput
        id="cable-length-unit"
        label={t("cabling:cable.lengthUnit")}
        value={d.length_unit}
        options={LENGTH_UNITS.map((u) => [u, u])}
        onValue={(length_unit) => setD({ ...d, length_unit })}
      />
      <SelectInput
        id="cable-status"
        label={t("cabling:cable.status")}
        value={d.status}
        options={CABLE_STATUSES.map((s) => [s, t(CABLE_STATUS_LABELS[s])])}
        onValue={(status) => setD({ ...d, status })}
      />
      <div class="actions">
        <button type="submit" class="primary" disabled={port === "" || submit.busy}>
          {t("cabling:cable.connect")}
        </button>
        <button type="button" onClick={onDone}>
          {t("common:cancel")}
        </button>
      </div>
    </form>
  );
}
