// Where the real services of the test suite are (PostgreSQL and Redis on this machine, and in CI).
export const PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
/** The vault key of in-process test runtimes (SVC_VAULT_KEY; a split-style process must be given one). */
export const TEST_VAULT_KEY = "dGVzdC12YXVsdC1rZXktb2YtMzItYnl0ZXMtZXhhY3Q=";

/**
 * The outbound policy stored in the test template: the fakes of integrations and sinks listen on
 * 127.0.0.x, which the default policy refuses. Tests of the policy itself set it back explicitly.
 */
export const TEST_OUTBOUND_POLICY = { allow_private: true, allow_loopback: true };

/** Each run of the suite has its own template (named by the runner's pid), so parallel runs never collide. */
export function templateDb(pid: number = Number(process.env.CP_TEST_RUNNER_PID ?? process.pid)): string {
  return `cp_test_template_${pid}`;
}

export function databaseUrl(name: string): string {
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}
