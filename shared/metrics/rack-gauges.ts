// Rack utilisation in GET /api/v1/metrics (issue 33 item 1): svc_rack_units per rack and state (used,
// reserved, free), labelled by the rack's and its site's names only, so the series grow with the racks
// (three each) and never with what is in them. Paged by id like the other per-resource series.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../db/database.ts";
import { utilisationsOf } from "../verbs/inventory/racks/occupants.ts";
import { type Family, pageText, sampleLinesOverLast } from "./exposition.ts";

interface RackRow {
  id: number;
  name: string;
  site: string;
  u_height: number;
}

const family: Family = {
  name: "svc_rack_units",
  help: "Units per rack by state: used (a node on either face), reserved (and not used), free.",
  type: "gauge",
  labels: ["rack", "site", "state"],
};

const query = (after: number, limit: number) =>
  sql`select r.id, r.name, s.name as site, r.u_height from racks r join sites s on s.id = r.site_id
    where r.id > ${after} order by r.id limit ${limit}`;

export const RACK_FAMILIES = [
  {
    ...family,
    query,
    async *chunks(db: Db, pageSize: number): AsyncGenerator<string> {
      for (let after = 0; ; ) {
        const rows = await queryRows<RackRow>(db, query(after, pageSize));
        const used = await utilisationsOf(db, rows);
        if (rows.length)
          yield pageText(rows, (r) => {
            const u = used.get(r.id)!;
            return sampleLinesOverLast(
              family,
              [r.name, r.site],
              [
                ["used", u.used_u],
                ["reserved", u.reserved_u],
                ["free", u.free_u],
              ],
            );
          });
        if (rows.length < pageSize) return;
        after = rows.at(-1)!.id;
      }
    },
  },
];
