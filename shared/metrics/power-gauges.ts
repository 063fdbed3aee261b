// Power in GET /api/v1/metrics (issue 33 item 2, docs/ports-and-cables.md): svc_pdu_load_watts per PDU
// (what the power ports its outlets feed draw) and svc_rack_power_watts per rack (what its nodes draw),
// each by state (allocated, maximum), labelled by names only. Paged by id like the rack units.
import type { SQL } from "drizzle-orm";
import { type Db, queryRows } from "../db/database.ts";
import { type PowerLoad, pduLoadQuery, rackPowerQuery } from "../verbs/inventory/cabling/power.ts";
import { type Family, pageText, sampleLinesOverLast } from "./exposition.ts";

function paged(family: Family, query: (after: number, limit: number) => SQL, labels: (r: PowerLoad & { site?: string }) => string[]) {
  return {
    ...family,
    query,
    async *chunks(db: Db, pageSize: number): AsyncGenerator<string> {
      for (let after = 0; ; ) {
        const rows = await queryRows<PowerLoad & { site?: string }>(db, query(after, pageSize));
        if (rows.length)
          yield pageText(rows, (r) =>
            sampleLinesOverLast(family, labels(r), [
              ["allocated", r.allocated_w],
              ["maximum", r.maximum_w],
            ]),
          );
        if (rows.length < pageSize) return;
        after = rows.at(-1)!.id;
      }
    },
  };
}

export const POWER_FAMILIES = [
  paged(
    {
      name: "svc_pdu_load_watts",
      help: "Watts drawn through a PDU's outlets (the power ports they feed): allocated and maximum.",
      type: "gauge",
      labels: ["pdu", "state"],
    },
    pduLoadQuery,
    (r) => [r.name],
  ),
  paged(
    {
      name: "svc_rack_power_watts",
      help: "Watts the nodes mounted in a rack draw (their power ports): allocated and maximum.",
      type: "gauge",
      labels: ["rack", "site", "state"],
    },
    rackPowerQuery,
    (r) => [r.name, r.site ?? ""],
  ),
];
