// The registry entries (check-types.ts) of the database checks: postgres, mysql (MariaDB too) and redis.
// The host is the monitor's; the password is a secret (sealed, answered masked). A query's expected value
// is compared with the first column of its first row, as text. Runtime-neutral, like check-types.ts.
import * as v from "valibot";
import { NullableText, Port, timeoutField, WholeNumber } from "./config-fields.ts";

const TIMEOUT = { fallback: 10.0, max: 60 };

/** postgres and mysql share their keys; only the port differs. */
const sqlEntry = (port: number) =>
  ({
    config: {
      port: v.optional(Port),
      database: NullableText(200),
      username: NullableText(200),
      password: NullableText(1000),
      query: NullableText(4000),
      expected_value: NullableText(1000),
      tls: v.optional(v.boolean()),
      timeout: timeoutField(TIMEOUT.max),
    },
    defaults: { port, database: null, username: null, password: null, query: null, expected_value: null, tls: false },
    timeout: TIMEOUT,
    runners: ["sidecar"],
    secretKeys: ["password"],
  }) as const;

export const DATABASE_CHECK_TYPES = {
  postgres: sqlEntry(5432),
  mysql: sqlEntry(3306),
  redis: {
    config: {
      port: v.optional(Port),
      username: NullableText(200),
      password: NullableText(1000),
      database: v.optional(WholeNumber(0, 15)),
      key: NullableText(1000),
      expected_value: NullableText(1000),
      tls: v.optional(v.boolean()),
      timeout: timeoutField(TIMEOUT.max),
    },
    defaults: { port: 6379, username: null, password: null, database: 0, key: null, expected_value: null, tls: false },
    timeout: TIMEOUT,
    runners: ["sidecar"],
    secretKeys: ["password"],
  },
} as const;
