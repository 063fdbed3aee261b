// Statements every request runs (the credential lookups) are built once per database handle and run as
// named prepared statements: no query building in JavaScript and no parse/plan in PostgreSQL per request.
// Per handle because a prepared query is bound to the client it was built on (on workerd every request
// has its own client, so there it is built per request, as an unprepared query would be).
import type { Db } from "./database.ts";

export function preparedPerDb<P>(build: (db: Db) => P): (db: Db) => P {
  const cache = new WeakMap<Db, P>();
  return (db) => {
    let prepared = cache.get(db);
    if (prepared === undefined) {
      prepared = build(db);
      cache.set(db, prepared);
    }
    return prepared;
  };
}
