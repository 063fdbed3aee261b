import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { auditActions } from "./support.ts";

let a: Actors;
let hwId: number;
let svcId: number;
beforeAll(async () => {
  a = await createActors();
  hwId = (await a.t.sql`insert into hardware (name) values ('nas-01') returning id`)[0]!.id as number;
  svcId = (await a.t.sql`insert into services (name, slug) values ('Jellyfin', 'jellyfin') returning id`)[0]!.id as number;
});
afterAll(async () => a.t.close());

const newMap = async (name: string) => {
  const res = await a.req("POST", "maps", a.editor, { name, description: "rack" });
  expect(res.status).toBe(201);
  return res.json();
};

describe("maps: happy", () => {
  it("creates, places objects, lists them with names, moves, removes, patches and deletes", async () => {
    const map = await newMap("Basement");
    expect(map).toMatchObject({ name: "Basement", description: "rack", background: null, entities: [] });

    const placed = await a.req("POST", `maps/${map.id}/entities`, a.editor, { entity_type: "hardware", entity_id: hwId, x: 10, y: 20 });
    expect(placed.status).toBe(201);
    expect(await placed.json()).toEqual({ entity_type: "hardware", entity_id: hwId, name: "nas-01", x: 10, y: 20 });
    expect((await a.req("POST", `maps/${map.id}/entities`, a.editor, { entity_type: "service", entity_id: svcId })).status).toBe(201);
    const moved = await a.req("POST", `maps/${map.id}/entities`, a.editor, { entity_type: "hardware", entity_id: hwId, x: 30, y: 40 });
    expect(moved.status).toBe(200);

    const list = await (await a.req("GET", "maps?q=base", a.viewer)).json();
    expect(list).toMatchObject({ total: 1, sort: "name", pins: [] });
    expect(list.items[0].entities).toEqual([
      { entity_type: "hardware", entity_id: hwId, name: "nas-01", x: 30, y: 40 },
      { entity_type: "service", entity_id: svcId, name: "Jellyfin", x: null, y: null },
    ]);

    expect((await a.req("DELETE", `maps/${map.id}/entities/service/${svcId}`, a.editor)).status).toBe(204);
    const patched = await (
      await a.req("PATCH", `maps/${map.id}`, a.editor, { background: "/uploads/doc-image/x.png", entities: [] })
    ).json();
    expect(patched).toMatchObject({ name: "Basement", background: "/uploads/doc-image/x.png" });
    expect(patched.entities).toHaveLength(1);

    expect((await a.req("DELETE", `maps/${map.id}`, a.admin)).status).toBe(204);
    expect((await a.t.sql`select count(*)::int as n from map_entities where map_id = ${map.id}`)[0]!.n).toBe(0);
    expect(await auditActions(a, "map")).toEqual([
      "map.create",
      "map.entity.set",
      "map.entity.set",
      "map.entity.set",
      "map.entity.delete",
      "map.update",
      "map.delete",
    ]);
  });

  it("pins an object (201), moves the pin (200), lists pins in GET /maps, removes it", async () => {
    const first = await a.req("POST", "maps/pin", a.editor, {
      entity_type: "hardware",
      entity_id: hwId,
      latitude: 52.52,
      longitude: 13.405,
      label: "Berlin",
    });
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({
      entity_type: "hardware",
      entity_id: hwId,
      name: "nas-01",
      latitude: 52.52,
      label: "Berlin",
    });
    const again = await a.req("POST", "maps/pin", a.editor, { entity_type: "hardware", entity_id: hwId, latitude: 48.85, longitude: 2.35 });
    expect(again.status).toBe(200);
    const { pins } = await (await a.req("GET", "maps", a.viewer)).json();
    expect(pins).toEqual([
      expect.objectContaining({ entity_type: "hardware", entity_id: hwId, latitude: 48.85, longitude: 2.35, label: null }),
    ]);
    expect((await a.req("DELETE", `maps/pin/hardware/${hwId}`, a.editor)).status).toBe(204);
    expect((await (await a.req("GET", "maps", a.viewer)).json()).pins).toEqual([]);
    expect(await auditActions(a, "hardware")).toEqual(["map.pin.set", "map.pin.set", "map.pin.delete"]);
  });
});

describe("maps: errors", () => {
  it("404 for unknown maps, placements and pins", async () => {
    expect(await (await a.req("PATCH", "maps/9999", a.editor, { name: "x" })).json()).toEqual({
      error_code: "RESOURCE_NOT_FOUND",
      detail: "Map 9999 was not found.",
    });
    expect((await a.req("POST", "maps/9999/entities", a.editor, { entity_type: "hardware", entity_id: hwId })).status).toBe(404);
    const map = await newMap("Empty");
    const gone = await a.req("DELETE", `maps/${map.id}/entities/hardware/${hwId}`, a.editor);
    expect(gone.status).toBe(404);
    expect((await gone.json()).detail).toBe(`Hardware node ${hwId} was not found on map ${map.id}.`);
    expect((await a.req("DELETE", "maps/pin/storage/77", a.editor)).status).toBe(404);
  });

  it("422: missing objects, bad coordinates, unknown types and fields; nothing stored", async () => {
    const map = await newMap("Errors");
    const missing = await a.req("POST", `maps/${map.id}/entities`, a.editor, { entity_type: "network", entity_id: 4242 });
    expect(missing.status).toBe(422);
    expect((await missing.json()).fields.entity_id).toBe("Network 4242 was not found.");
    const bad = await a.req("POST", "maps/pin", a.editor, { entity_type: "hardware", entity_id: hwId, latitude: 91, longitude: -181 });
    expect(bad.status).toBe(422);
    expect(Object.keys((await bad.json()).fields).sort()).toEqual(["latitude", "longitude"]);
    expect((await a.req("POST", "maps/pin", a.editor, { entity_type: "planet", entity_id: 1, latitude: 0, longitude: 0 })).status).toBe(
      422,
    );
    expect((await a.req("DELETE", "maps/pin/planet/1", a.editor)).status).toBe(422);
    expect((await a.req("POST", "maps", a.editor, { name: "x", colour: "red" })).status).toBe(422);
    expect((await a.t.sql`select count(*)::int as n from map_pins`)[0]!.n).toBe(0);
  });
});

describe("maps: security", () => {
  it("anonymous 401, viewer cannot write, editor cannot delete a map", async () => {
    expect((await a.req("GET", "maps")).status).toBe(401);
    expect((await a.req("POST", "maps", a.viewer, { name: "nope" })).status).toBe(403);
    expect(
      (await a.req("POST", "maps/pin", a.viewer, { entity_type: "hardware", entity_id: hwId, latitude: 0, longitude: 0 })).status,
    ).toBe(403);
    const map = await newMap("Keep");
    expect((await a.req("POST", `maps/${map.id}/entities`, a.viewer, { entity_type: "hardware", entity_id: hwId })).status).toBe(403);
    expect((await a.req("DELETE", `maps/${map.id}`, a.editor)).status).toBe(403);
  });
});
