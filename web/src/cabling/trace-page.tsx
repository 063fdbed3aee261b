// The cable trace of one port (GET /{kind}/{id}/trace, docs/ports-and-cables.md): the path as a row of
// boxes, node:port -> cable -> node:port, through every patch panel to the far end, and why it ends.
import { Fragment } from "preact";
import { anyApi, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { Notice } from "../components/field.tsx";
import { useT } from "../i18n/use-t.ts";
import { Link } from "../router.tsx";
import { useLoad } from "../use-load.ts";
import { ENDPOINT_KINDS, ENDPOINT_PATHS, type EndpointKind } from "../../../shared/domain/cabling/endpoints.ts";
import { PORT_KINDS, TRACE_ENDS } from "./port-kinds.ts";

interface End {
  kind: EndpointKind;
  id: number;
  name: string;
  hardware_id: number;
  hardware_name: string;
}
interface Trace {
  start: End;
  segments: {
    near: End;
    cable: {
      id: number;
      label: string | null;
      type: string | null;
      colour: string | null;
      length: number | null;
      length_unit: string | null;
    };
    far: End;
  }[];
  ended: string;
}

function Port({ end }: { end: End }) {
  const t = useT();
  return (
    <li class="trace-port" data-testid="trace-port">
      <Link href={`/inventory/hardware/${end.hardware_id}`}>{end.hardware_name}</Link>
      <span>:{end.name}</span>
      <small class="meta">{t(PORT_KINDS[end.kind].noun)}</small>
    </li>
  );
}

export function TracePage({ kind, id }: { kind: string; id: string }) {
  const t = useT();
  const known = (ENDPOINT_KINDS as readonly string[]).includes(kind);
  const trace = useLoad(
    async () =>
      known
        ? ((await ok(anyApi.GET(`/api/v1/${ENDPOINT_PATHS[kind as EndpointKind]}/{id}/trace`, { params: { path: { id } } }))) as Trace)
        : undefined,
    [kind, id],
  );
  if (!known) return <Notice kind="error">{t("cabling:traceUnknown", { kind })}</Notice>;
  if (trace.error !== undefined) return <Notice kind="error">{messageOf(trace.error)}</Notice>;
  const data = trace.data;
  if (!data) return <p aria-busy="true">{t("common:loading")}</p>;
  const title = t("cabling:traceTitle", { port: `${data.start.hardware_name}:${data.start.name}` });
  return (
    <article aria-labelledby="trace-title">
      <header class="page-head">
        <div>
          <p class="crumbs">
            <Link href={`/inventory/hardware/${data.start.hardware_id}`}>{data.start.hardware_name}</Link>
          </p>
          <h1 id="trace-title">{title}</h1>
        </div>
      </header>
      {data.segments.length === 0 ? (
        <p class="empty">{t(TRACE_ENDS.no_cable!)}</p>
      ) : (
        <ol class="trace" aria-label={t("cabling:tracePath")}>
          {data.segments.map((s) => (
            <Fragment key={s.cable.id}>
              <Port end={s.near} />
              <li class="trace-cable" data-testid="trace-cable">
                <span aria-hidden="true">→</span> {s.cable.label ?? t("cabling:cableNumber", { id: s.cable.id })}
                <small class="meta">
                  {[s.cable.type, s.cable.colour, s.cable.length != null ? `${s.cable.length} ${s.cable.length_unit ?? ""}` : null]
                    .filter(Boolean)
                    .join(" · ")}
                </small>
                <span aria-hidden="true">→</span>
              </li>
              <Port end={s.far} />
            </Fragment>
          ))}
        </ol>
      )}
      <p class="meta" data-testid="trace-ended">
        {t(TRACE_ENDS[data.ended] ?? TRACE_ENDS.open!)}
      </p>
    </article>
  );
}
