// GET /timezones: zones and offsets, for any signed-in user.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

describe("timezones", () => {
  it("lists UTC and every IANA zone with its current offset", async () => {
    const res = await a.req("GET", "timezones", a.viewer);
    expect(res.status).toBe(200);
    const zones: { name: string; utc_offset: string; offset_minutes: number }[] = await res.json();
    expect(zones[0]).toEqual({ name: "UTC", utc_offset: "+00:00", offset_minutes: 0 });
    expect(zones.length).toBe(Intl.supportedValuesOf("timeZone").length + 1);
    // No daylight saving in either, so the offsets are fixed whatever the date.
    expect(zones.find((z) => z.name === "Asia/Tokyo")).toEqual({ name: "Asia/Tokyo", utc_offset: "+09:00", offset_minutes: 540 });
    expect(zones.find((z) => /^Asia\/(Kolkata|Calcutta)$/.test(z.name))).toMatchObject({ utc_offset: "+05:30", offset_minutes: 330 });
    for (const z of zones) expect(z.utc_offset).toMatch(/^[+-]\d{2}:\d{2}$/);
    expect(zones.find((z) => z.name === "America/St_Johns")!.offset_minutes).toBeLessThan(-150);
  });

  it("needs a signed-in user", async () => {
    expect((await a.req("GET", "timezones")).status).toBe(401);
  });
});
