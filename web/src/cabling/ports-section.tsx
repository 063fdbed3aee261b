// A hardware node's Interfaces, Ports (patch-panel rear and front ports) and Power (power ports and
// outlets) sections (docs/ports-and-cables.md): each kind listed with what its cable reaches, added,
// edited (If-Match) and deleted here, a free port connected by the cable form, a cabled one traced or
// disconnected. Who may not write sees the lists only. Beside the Interfaces, the node's LLDP
// neighbours proposed as cables (lldp-section.tsx).
import { useState } from "preact/hooks";
import { anyApi, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice } from "../components/field.tsx";
import { useT } from "../i18n/use-t.ts";
import { Link } from "../router.tsx";
import { useLoad } from "../use-load.ts";
import type { EndpointKind } from "../../../shared/domain/cabling/endpoints.ts";
import { CableForm } from "./cable-form.tsx";
import { LldpSection } from "./lldp-section.tsx";
import { bodyOf, draftOf, PORT_KINDS, PORT_SECTIONS, type PortField, type PortKindSpec } from "./port-kinds.ts";

type Row = Record<string, unknown> & { id: number; name: string; version: number; cable_id: number | null };
interface Page {
  items: Row[];
  total: number;
}
interface EndView {
  hardware_name: string;
  name: string;
}

const listOf = async (path: string, hardwareId: string) =>
  (await ok(anyApi.GET(`/api/v1/${path}`, { params: { query: { hardware_id: hardwareId, limit: 100, sort: "name" } } }))) as Page;

function PortInput({
  spec,
  field,
  value,
  error,
  siblings,
  onValue,
}: {
  spec: PortKindSpec;
  field: PortField;
  value: string;
  error: string | undefined;
  siblings: Row[];
  onValue(v: string): void;
}) {
  const t = useT();
  const id = `${spec.kind}-${field.name}`;
  if (field.kind === "check")
    return (
      <label class="check row">
        <input id={id} type="checkbox" checked={value !== ""} onChange={() => onValue(value === "" ? "on" : "")} /> {t(field.label)}
      </label>
    );
  return (
    <Field id={id} label={t(field.label)} error={error}>
      {(a11y) =>
        field.kind === "select" || field.kind === "sibling" ? (
          <select {...a11y} value={value} onChange={(e) => onValue((e.currentTarget as HTMLSelectElement).value)}>
            {field.kind === "sibling" && <option value="">{t("cabling:none")}</option>}
            {field.kind === "select"
              ? field.options!.map((o) => (
                  <option key={o} value={o}>
                    {o === "" ? t("cabling:none") : o}
                  </option>
                ))
              : siblings
                  .filter((s) => !field.siblingWhere || s[field.siblingWhere[0]] === field.siblingWhere[1])
                  .map((s) => (
                    <option key={s.id} value={String(s.id)}>
                      {s.name}
                    </option>
                  ))}
          </select>
        ) : (
          <input
            {...a11y}
            value={value}
            inputMode={field.kind === "number" ? "numeric" : "text"}
            onInput={(e) => onValue((e.currentTarget as HTMLInputElement).value)}
          />
        )
      }
    </Field>
  );
}

function PortForm({ spec, hardwareId, row, onDone }: { spec: PortKindSpec; hardwareId: string; row: Row | undefined; onDone(): void }) {
  const t = useT();
  const submit = useSubmit();
  const [draft, setDraft] = useState(() => draftOf(spec, row));
  const siblingKind = spec.fields.find((f) => f.kind === "sibling")?.sibling;
  const siblings = useLoad(
    async () => (siblingKind ? (await listOf(PORT_KINDS[siblingKind].path, hardwareId)).items : []),
    [siblingKind, hardwareId],
  );
  const save = (e: Event) => {
    e.preventDefault();
    void submit.run(async () => {
      const body = bodyOf(spec, draft);
      if (row)
        await ok(
          anyApi.PATCH(`/api/v1/${spec.path}/{id}`, {
            params: { path: { id: row.id } },
            body,
            headers: { "If-Match": `"${row.version}"` },
          }),
        );
      else await ok(anyApi.POST(`/api/v1/${spec.path}`, { body: { ...body, hardware_id: Number(hardwareId) } }));
      onDone();
    });
  };
  const title = row ? t("cabling:form.edit", { name: row.name }) : t("cabling:form.add", { noun: t(spec.noun) });
  return (
    <form class="port-form" onSubmit={save} noValidate aria-label={title}>
      <h3>{title}</h3>
      <Notice kind="error">{submit.errorBesides(spec.fields.map((f) => f.name))}</Notice>
      {spec.fields.map((f) => (
        <PortInput
          key={f.name}
          spec={spec}
          field={f}
          value={draft[f.name] ?? ""}
          error={submit.fields[f.name]}
          siblings={(siblings.data ?? []).filter((s) => s.id !== row?.id)}
          onValue={(v) => setDraft({ ...draft, [f.name]: v })}
        />
      ))}
      <div class="actions">
        <button type="submit" class="primary" disabled={submit.busy}>
          {t("cabling:form.save")}
        </button>
        <button type="button" onClick={onDone}>
          {t("common:cancel")}
        </button>
      </div>
    </form>
  );
}

function PortTable({ kind, hardwareId, changed }: { kind: EndpointKind; hardwareId: string; changed: number }) {
  const t = useT();
  const session = useSession();
  const canWrite = session.can("write:hardware");
  const canDelete = session.can("delete:hardware");
  const spec = PORT_KINDS[kind];
  const rows = useLoad(() => listOf(spec.path, hardwareId), [kind, hardwareId, changed]);
  const [editing, setEditing] = useState<Row | "new" | undefined>();
  const [cabling, setCabling] = useState<Row | undefined>();
  const submit = useSubmit();
  const done = () => {
    setEditing(undefined);
    setCabling(undefined);
    rows.reload();
  };
  const remove = (r: Row) => {
    if (!confirm(t("cabling:confirmDelete", { name: r.name }))) return;
    void submit.run(async () => {
      await ok(anyApi.DELETE(`/api/v1/${spec.path}/{id}`, { params: { path: { id: r.id } }, headers: { "If-Match": `"${r.version}"` } }));
      rows.reload();
    });
  };
  const disconnect = (r: Row) => {
    if (!confirm(t("cabling:confirmDisconnect", { name: r.name }))) return;
    void submit.run(async () => {
      await ok(anyApi.DELETE("/api/v1/cables/{id}", { params: { path: { id: r.cable_id } } }));
      rows.reload();
    });
  };
  const items = rows.data?.items ?? [];
  return (
    <section class="ports" aria-label={t(spec.title)}>
      <h3>
        {t(spec.title)} {rows.data && <span class="count">({rows.data.total})</span>}
      </h3>
      {rows.error !== undefined && <Notice kind="error">{messageOf(rows.error)}</Notice>}
      <Notice kind="error">{submit.error}</Notice>
      {rows.data && items.length === 0 && <p class="empty">{t("cabling:empty")}</p>}
      {items.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>{t("cabling:field.name")}</th>
              <th>{t("cabling:details")}</th>
              <th>{t("cabling:connectedTo")}</th>
              <th>
                <span class="visually-hidden">{t("cabling:actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((r) => {
              const far = r.connected_to as EndView | null;
              return (
                <tr key={r.id}>
                  <td>{r.name}</td>
                  <td class="meta">
                    {spec.show
                      .map((k) => r[k])
                      .filter((v) => v != null && v !== "")
                      .join(" · ")}
                  </td>
                  <td>{far ? `${far.hardware_name}:${far.name}` : "—"}</td>
                  <td class="actions">
                    {r.cable_id != null && (
                      <Link href={`/cabling/trace/${kind}/${r.id}`} aria-label={t("cabling:traceOf", { name: r.name })}>
                        {t("cabling:trace")}
                      </Link>
                    )}
                    {canWrite && r.cable_id == null && (
                      <button
                        type="button"
                        class="link"
                        onClick={() => setCabling(r)}
                        aria-label={t("cabling:connectOf", { name: r.name })}
                      >
                        {t("cabling:connect")}
                      </button>
                    )}
                    {canWrite && r.cable_id != null && (
                      <button
                        type="button"
                        class="link"
                        onClick={() => disconnect(r)}
                        aria-label={t("cabling:disconnectOf", { name: r.name })}
                      >
                        {t("cabling:disconnect")}
                      </button>
                    )}
                    {canWrite && (
                      <button type="button" class="link" onClick={() => setEditing(r)} aria-label={t("cabling:editOf", { name: r.name })}>
                        {t("cabling:edit")}
                      </button>
                    )}
                    {canDelete && (
                      <button
                        type="button"
                        class="link danger"
                        onClick={() => remove(r)}
                        aria-label={t("cabling:deleteOf", { name: r.name })}
                      >
                        {t("cabling:delete")}
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {cabling && <CableForm from={{ kind, id: cabling.id }} fromName={cabling.name} onDone={done} />}
      {editing && (
        <PortForm
          key={editing === "new" ? "new" : editing.id}
          spec={spec}
          hardwareId={hardwareId}
          row={editing === "new" ? undefined : editing}
          onDone={done}
        />
      )}
      {canWrite && !editing && (
        <button type="button" onClick={() => setEditing("new")}>
          {t("cabling:form.add", { noun: t(spec.noun) })}
        </button>
      )}
    </section>
  );
}

interface Power {
  draw: { allocated_w: number; maximum_w: number };
  load: { allocated_w: number; maximum_w: number; outlets_used: number; outlets_total: number };
}

/** The node's draw and, for a PDU, the load on its outlets (GET /hardware/{id}/power). */
function PowerSummary({ hardwareId }: { hardwareId: string }) {
  const t = useT();
  const power = useLoad(
    async () => (await ok(anyApi.GET("/api/v1/hardware/{hardware_id}/power", { params: { path: { hardware_id: hardwareId } } }))) as Power,
    [hardwareId],
  );
  if (!power.data) return null;
  const { draw, load } = power.data;
  return (
    <p class="meta" data-testid="power-summary">
      {t("cabling:power.draw", { allocated: draw.allocated_w, maximum: draw.maximum_w })}
      {load.outlets_total > 0 &&
        ` · ${t("cabling:power.load", { allocated: load.allocated_w, maximum: load.maximum_w, used: load.outlets_used, total: load.outlets_total })}`}
    </p>
  );
}

export function PortsSections({ hardwareId }: { hardwareId: string }) {
  const t = useT();
  // A cable made from an LLDP proposal: the port lists are read again.
  const [changed, setChanged] = useState(0);
  return (
    <>
      {PORT_SECTIONS.map((s) => (
        <section key={s.title} class="port-section" aria-label={t(s.title)}>
          <h2>{t(s.title)}</h2>
          {(s.kinds as readonly EndpointKind[]).includes("power_port") && <PowerSummary hardwareId={hardwareId} />}
          {s.kinds.map((k) => (
            <PortTable key={k} kind={k} hardwareId={hardwareId} changed={changed} />
          ))}
          {(s.kinds as readonly EndpointKind[]).includes("interface") && (
            <LldpSection hardwareId={hardwareId} onCabled={() => setChanged((n) => n + 1)} />
          )}
        </section>
      ))}
    </>
  );
}
