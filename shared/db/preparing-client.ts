// drizzle's postgres-js driver runs every query it was not asked to name with `prepare: false`, and
// postgres.js then spends a round trip asking PostgreSQL for the parameter types before it can bind
// them: two round trips for every parameterised statement. This view of the client lets postgres.js
// prepare them instead (one round trip once a connection has seen the statement, and no re-planning),
// inside transactions too. Statements too big to be worth keeping per connection (bulk inserts, long
// IN lists) keep the unprepared path, so the per-connection statement cache stays small; postgres.js
// recycles connections (max_lifetime) anyway.

const MAX_PARAMS = 128;
const MAX_TEXT = 16_384;

type Unsafe = (query: string, params?: unknown[], options?: { prepare?: boolean }) => unknown;
type Scoped = (...args: unknown[]) => unknown;

function worthPreparing(query: string, params: unknown[] | undefined): boolean {
  return query.length <= MAX_TEXT && (params?.length ?? 0) <= MAX_PARAMS;
}

export function preparingClient<T extends object>(client: T): T {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      if (prop === "unsafe")
        return (query: string, params?: unknown[], options: { prepare?: boolean } = {}) =>
          (value as Unsafe).call(target, query, params, worthPreparing(query, params) ? { ...options, prepare: true } : options);
      // A transaction's (or savepoint's) own client gets the same treatment.
      if (prop === "begin" || prop === "savepoint")
        return (...args: unknown[]) => {
          const fn = args.pop() as (inner: object) => unknown;
          return (value as Scoped).call(target, ...args, (inner: object) => fn(preparingClient(inner)));
        };
      return (value as Scoped).bind(target);
    },
  }) as T;
}
