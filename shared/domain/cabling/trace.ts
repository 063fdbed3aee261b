// The cable trace (docs/ports-and-cables.md): from one endpoint, follow its cable to the far end; where
// the far end is a patch panel's front port, continue from the rear port it maps to, and where it is a
// rear port, continue from the front port at the position the path entered by (a rear port of one
// position has one front port). The path ends at an interface, a power port or outlet, an endpoint
// without a cable, or a panel port that maps nowhere. Bounded: a path that comes back to a port it has
// passed, or runs past MAX_SEGMENTS, stops and says so (bad data never loops).
import type { EndpointKind } from "./endpoints.ts";

export interface EndpointRef {
  kind: EndpointKind;
  id: number;
}

export interface TraceCable {
  id: number;
  a: EndpointRef;
  b: EndpointRef;
}

/** What the trace reads; each answers undefined when there is nothing. */
export interface TraceLookup<C extends TraceCable> {
  cableOn(end: EndpointRef): Promise<C | undefined>;
  /** A front port's rear port and position. */
  rearOf(frontPortId: number): Promise<{ rear_port_id: number; rear_position: number } | undefined>;
  /** The front port mapped to this rear port at this position (none given: its only one, when it has one position). */
  frontOf(rearPortId: number, position: number | undefined): Promise<number | undefined>;
}

export interface TraceStep<C> {
  near: EndpointRef;
  cable: C;
  far: EndpointRef;
}

/**
 * endpoint: reached an interface or a power port/outlet; no_cable: the start holds no cable; open: the
 * path stops at a panel port with nothing patched behind it (or mapped nowhere); loop and too_long: bad
 * data, the path as far as it went.
 */
export type TraceEnd = "endpoint" | "no_cable" | "open" | "loop" | "too_long";

export const MAX_SEGMENTS = 64;

const key = (e: EndpointRef) => `${e.kind}:${e.id}`;

export async function traceFrom<C extends TraceCable>(
  start: EndpointRef,
  look: TraceLookup<C>,
): Promise<{ segments: TraceStep<C>[]; ended: TraceEnd }> {
  const segments: TraceStep<C>[] = [];
  const seen = new Set<string>();
  // The positions entered through front ports, innermost last: a multi-position rear port leaves by it.
  const positions: number[] = [];
  let near: EndpointRef = start;
  for (;;) {
    if (segments.length >= MAX_SEGMENTS) return { segments, ended: "too_long" };
    if (seen.has(key(near))) return { segments, ended: "loop" };
    seen.add(key(near));
    const cable = await look.cableOn(near);
    if (!cable) return { segments, ended: segments.length === 0 ? "no_cable" : "open" };
    const far = cable.a.kind === near.kind && cable.a.id === near.id ? cable.b : cable.a;
    segments.push({ near, cable, far });
    seen.add(key(far));
    if (far.kind === "front_port") {
      const rear = await look.rearOf(far.id);
      if (!rear) return { segments, ended: "open" };
      positions.push(rear.rear_position);
      near = { kind: "rear_port", id: rear.rear_port_id };
    } else if (far.kind === "rear_port") {
      const position = positions.pop();
      const front = await look.frontOf(far.id, position);
      if (front === undefined) return { segments, ended: "open" };
      near = { kind: "front_port", id: front };
    } else {
      return { segments, ended: "endpoint" };
    }
  }
}
