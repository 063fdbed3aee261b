// GET /{interfaces|front-ports|rear-ports|power-ports|power-outlets}/{id}/trace: the path from one
// endpoint through patch panels to the far end (shared/domain/cabling/trace.ts), each step described.
import { and, eq } from "drizzle-orm";
import { frontPorts, rearPorts } from "../../../db/schema/index.ts";
import type { Db } from "../../../db/database.ts";
import { ENDPOINT_LABELS, type EndpointKind } from "../../../domain/cabling/endpoints.ts";
import { traceFrom } from "../../../domain/cabling/trace.ts";
import { ApiError } from "../../../errors.ts";
import { defineRead } from "../../verb.ts";
import { cableOn, describeEndpoints } from "./endpoints.ts";
import { type CableRow, endpointKey, endsOf } from "./tables.ts";

type TracedCable = CableRow & { a: { kind: EndpointKind; id: number }; b: { kind: EndpointKind; id: number } };

function lookup(db: Db) {
  return {
    async cableOn(end: { kind: EndpointKind; id: number }): Promise<TracedCable | undefined> {
      const c = await cableOn(db, end);
      if (!c) return undefined;
      const [a, b] = endsOf(c);
      return { ...c, a, b };
    },
    async rearOf(frontPortId: number) {
      const [row] = await db
        .select({ rear_port_id: frontPorts.rear_port_id, rear_position: frontPorts.rear_position })
        .from(frontPorts)
        .where(eq(frontPorts.id, frontPortId));
      return row;
    },
    async frontOf(rearPortId: number, position: number | undefined) {
      const [rear] = await db.select({ positions: rearPorts.positions }).from(rearPorts).where(eq(rearPorts.id, rearPortId));
      const at = position ?? (rear?.positions === 1 ? 1 : undefined);
      if (at === undefined) return undefined;
      const [front] = await db
        .select({ id: frontPorts.id })
        .from(frontPorts)
        .where(and(eq(frontPorts.rear_port_id, rearPortId), eq(frontPorts.rear_position, at)));
      return front?.id;
    },
  };
}

export const traceEndpoint = defineRead({ scope: "read:hardware" }, async (ctx, start: { kind: EndpointKind; id: number }) => {
  const startView = (await describeEndpoints(ctx.db, [start])).get(endpointKey(start));
  if (!startView) throw ApiError.notFound(ENDPOINT_LABELS[start.kind], start.id);
  const { segments, ended } = await traceFrom(start, lookup(ctx.db));
  const views = await describeEndpoints(
    ctx.db,
    segments.flatMap((s) => [s.near, s.far]),
  );
  const view = (e: { kind: EndpointKind; id: number }) =>
    views.get(endpointKey(e)) ?? { kind: e.kind, id: e.id, name: "", hardware_id: 0, hardware_name: "" };
  return {
    start: startView,
    segments: segments.map((s) => ({
      near: view(s.near),
      cable: {
        id: s.cable.id,
        label: s.cable.label,
        type: s.cable.type,
        colour: s.cable.colour,
        status: s.cable.status as "connected",
        length: s.cable.length,
        length_unit: s.cable.length_unit as "m" | null,
      },
      far: view(s.far),
    })),
    ended,
  };
});
