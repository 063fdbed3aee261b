import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SEARCH_TYPES, searchIndexSql } from "../../shared/verbs/search/search.ts";

describe("search indexes", () => {
  it("migration 0005 indexes exactly the expression each search branch matches", () => {
    const migration = readFileSync(new URL("../../migrations/0005_search_indexes.sql", import.meta.url), "utf8");
    for (const type of SEARCH_TYPES) expect(migration, type).toContain(searchIndexSql(type));
  });
});
