// Sorting address columns by address rather than text. The guard keeps a row written around the API
// (which validates and stores canonical text) from failing the cast: such a row sorts last.
import { type AnyColumn, type SQL, sql } from "drizzle-orm";

const IPV4 = String.raw`^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(/([0-9]|[12][0-9]|3[0-2]))?$`;
const IPV6 =
  "^(?!.*:::)(?!.*::.*::)(?=.*::|([0-9a-f]{1,4}:){7}[0-9a-f]{1,4}(/|$))[0-9a-f]{0,4}(:[0-9a-f]{0,4}){2,7}(/([0-9]{1,2}|1[01][0-9]|12[0-8]))?$";

export function inetSortKey(column: AnyColumn): SQL {
  return sql`case when ${column} ~ ${IPV4} or ${column} ~ ${IPV6} then ${column}::inet end`;
}
