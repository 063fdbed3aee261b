// Shared set-up of the telemetry API tests: the signed-in actors, a driven clock (pushed timestamps are
// judged against it), an API token holding only write:telemetry, and hardware rows made directly.
import { expect } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

export interface TelemetryActors extends Actors {
  /** Holds write:telemetry and nothing else. */
  pusher: string;
  clock: { at: Date; now(): Date; advance(ms: number): void };
  node(name: string, ip?: string | null): Promise<number>;
  /** Collects payloads NOTIFYed on "telemetry" from now on. */
  notifications(): Promise<{ payloads: Record<string, unknown>[]; stop(): Promise<void> }>;
}

export async function createTelemetryActors(): Promise<TelemetryActors> {
  const a = await createActors();
  const clock = {
    at: new Date(Math.floor(Date.now() / 1000) * 1000),
    now: () => new Date(clock.at),
    advance: (ms: number) => void (clock.at = new Date(clock.at.getTime() + ms)),
  };
  a.t.runtime.deps.clock = clock;
  const res = await a.req("POST", "auth/api-token", a.admin, { label: "telemetry pusher", scopes: ["write:telemetry"] });
  expect(res.status).toBe(201);
  const pusher = (await res.json()).token as string;
  return {
    ...a,
    pusher,
    clock,
    async node(name, ip = null) {
      const [row] = await a.t.sql<{ id: number }[]>`insert into hardware (name, ip_address) values (${name}, ${ip}) returning id`;
      return row!.id;
    },
    async notifications() {
      const payloads: Record<string, unknown>[] = [];
      const { unlisten } = await a.t.sql.listen("telemetry", (p) => payloads.push(JSON.parse(p)));
      return { payloads, stop: unlisten };
    },
  };
}

/** Waits (bounded) until `check` holds: NOTIFY is delivered asynchronously after commit. */
export async function eventually(check: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
}
