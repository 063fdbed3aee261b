// The web client's committed API types (web/src/api/schema.d.ts) are those of the current routes: a route
// change that is not carried into them (node scripts/web-api-types.ts, or npm run build:web) fails here.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { SCHEMA_FILE, webApiTypes } from "../../scripts/web-api-types.ts";

describe("web API types", () => {
  it("match the OpenAPI document of the current routes", async () => {
    const committed = await readFile(SCHEMA_FILE, "utf8");
    expect(committed === (await webApiTypes()), "web/src/api/schema.d.ts is out of date: run node scripts/web-api-types.ts").toBe(true);
  });
});
