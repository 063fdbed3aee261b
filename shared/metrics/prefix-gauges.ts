// The prefixes' utilisation in GET /api/v1/metrics (issue 33 item 4): prefix_utilisation_percent per
// prefix, labelled by id, prefix, VRF name ("" for the global table) and status, computed as the API
// computes it (docs/ipam.md). Paged by id in pages of at most 100, since each counted prefix looks up
// the addresses it holds.
import { asc, gt } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { prefixes, vrfs } from "../db/schema/index.ts";
import { namesById } from "../verbs/resources/present.ts";
import { cidrOf, prefixFacts } from "../verbs/inventory/prefixes/tree.ts";
import { formatCidr } from "../domain/cidr-math.ts";
import { type Family, pageText, sampleLine } from "./exposition.ts";

const family: Family = {
  name: "prefix_utilisation_percent",
  help: "How much of the prefix is used: child prefixes, plus addresses in use for a non-container (docs/ipam.md), percent.",
  type: "gauge",
  labels: ["id", "prefix", "vrf", "status"],
};

export const PREFIX_FAMILY = {
  ...family,
  async *chunks(db: Db, pageSize: number): AsyncGenerator<string> {
    const size = Math.min(pageSize, 100);
    for (let after = 0; ; ) {
      const rows = await db.select().from(prefixes).where(gt(prefixes.id, after)).orderBy(asc(prefixes.id)).limit(size);
      if (rows.length === 0) return;
      const [facts, names] = await Promise.all([
        prefixFacts(db, rows),
        namesById(
          db,
          vrfs,
          vrfs.id,
          vrfs.name,
          rows.map((r) => r.vrf_id),
        ),
      ]);
      yield pageText(rows, (r) =>
        sampleLine(
          family,
          [String(r.id), formatCidr(cidrOf(r.prefix)), r.vrf_id === null ? "" : (names.get(r.vrf_id) ?? ""), r.status],
          facts.get(r.id)!.utilisation.percent,
        ),
      );
      if (rows.length < size) return;
      after = rows.at(-1)!.id;
    }
  },
};
