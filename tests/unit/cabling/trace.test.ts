// The cable trace and the compatibility rule (shared/domain/cabling), on data held in memory.
import { describe, expect, it } from "vitest";
import { incompatibility } from "../../../shared/domain/cabling/endpoints.ts";
import { type EndpointRef, MAX_SEGMENTS, type TraceCable, traceFrom } from "../../../shared/domain/cabling/trace.ts";

function world(cables: [EndpointRef, EndpointRef][], fronts: Record<number, [number, number]>, rears: Record<number, number> = {}) {
  const list: TraceCable[] = cables.map(([a, b], i) => ({ id: i + 1, a, b }));
  return {
    cableOn: async (e: EndpointRef) => list.find((c) => [c.a, c.b].some((x) => x.kind === e.kind && x.id === e.id)),
    rearOf: async (id: number) => (fronts[id] ? { rear_port_id: fronts[id][0], rear_position: fronts[id][1] } : undefined),
    frontOf: async (rear: number, position: number | undefined) => {
      const at = position ?? ((rears[rear] ?? 1) === 1 ? 1 : undefined);
      const hit = Object.entries(fronts).find(([, [r, p]]) => r === rear && p === at);
      return hit ? Number(hit[0]) : undefined;
    },
  };
}
const I = (id: number): EndpointRef => ({ kind: "interface", id });
const F = (id: number): EndpointRef => ({ kind: "front_port", id });
const R = (id: number): EndpointRef => ({ kind: "rear_port", id });

describe("traceFrom", () => {
  it("passes through a multi-position trunk by the position it entered", async () => {
    // Panel 1: fronts 11, 12 on rear 10 (positions 1, 2); panel 2: fronts 21, 22 on rear 20.
    const w = world(
      [
        [I(1), F(12)],
        [R(10), R(20)],
        [F(22), I(2)],
        [F(21), I(3)],
      ],
      { 11: [10, 1], 12: [10, 2], 21: [20, 1], 22: [20, 2] },
      { 10: 2, 20: 2 },
    );
    const { segments, ended } = await traceFrom(I(1), w);
    expect(ended).toBe("endpoint");
    expect(segments.map((s) => [s.near, s.far])).toEqual([
      [I(1), F(12)],
      [R(10), R(20)],
      [F(22), I(2)],
    ]);
    // Starting on the trunk itself, the position is unknown: a rear port of 2 positions maps nowhere.
    expect((await traceFrom(R(10), w)).ended).toBe("open");
  });

  it("ends open at a panel port with nothing behind it, and says when the start holds no cable", async () => {
    const w = world([[I(1), F(11)]], { 11: [10, 1] });
    expect(await traceFrom(I(1), w)).toMatchObject({ ended: "open", segments: [{ far: F(11) }] });
    expect(await traceFrom(I(9), w)).toEqual({ ended: "no_cable", segments: [] });
  });

  it("stops on a loop and on a path longer than the bound", async () => {
    const loop = world(
      [
        [F(11), F(21)],
        [R(20), R(10)],
      ],
      { 11: [10, 1], 21: [20, 1] },
    );
    expect((await traceFrom(F(11), loop)).ended).toBe("loop");
    // A chain of more panels than the bound allows: each panel n has front 2n+1000 on rear 2n.
    const n = MAX_SEGMENTS + 5;
    const fronts: Record<number, [number, number]> = {};
    const cables: [EndpointRef, EndpointRef][] = [[I(1), F(1000)]];
    for (let p = 0; p < n; p++) {
      fronts[1000 + p] = [p + 1, 1];
      cables.push([R(p + 1), F(1000 + p + 1)]);
    }
    const long = await traceFrom(I(1), world(cables, fronts));
    expect(long.ended).toBe("too_long");
    expect(long.segments).toHaveLength(MAX_SEGMENTS);
  });
});

describe("incompatibility", () => {
  it("joins data to data and an outlet to a power port, nothing else", () => {
    expect(incompatibility({ kind: "interface" }, { kind: "front_port" })).toBeNull();
    expect(incompatibility({ kind: "rear_port" }, { kind: "rear_port" })).toBeNull();
    expect(incompatibility({ kind: "power_outlet" }, { kind: "power_port" })).toBeNull();
    expect(incompatibility({ kind: "power_port" }, { kind: "interface" })).toMatch(/cannot join a power port/);
    expect(incompatibility({ kind: "power_port" }, { kind: "power_port" })).toMatch(/not two power ports/);
    expect(incompatibility({ kind: "interface", interfaceType: "virtual" }, { kind: "interface" })).toMatch(/virtual interface/);
  });
});
