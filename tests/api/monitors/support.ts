// Shared set-up of the monitors API tests: the agents' actors (driven clock, agent rows, NOTIFY
// collector) plus inventory rows to target and a monitor made through the API.
import { expect } from "vitest";
import { type AgentActors, createAgentActors } from "../agents/support.ts";

export interface MonitorActors extends AgentActors {
  /** Creates a monitor as the admin; answers its MonitorRead. */
  monitor(body?: Record<string, unknown>): Promise<Record<string, any>>;
  /** The monitor's row as stored: its config (masks in place) and its sealed secrets. */
  stored(id: number): Promise<{ id: number; config: Record<string, unknown>; secret_config: string | null }>;
  service(name: string, fields?: { url?: string | null; ip?: string | null; ports?: { port: number }[] }): Promise<number>;
}

let n = 0;

export async function createMonitorActors(): Promise<MonitorActors> {
  const a = await createAgentActors();
  return {
    ...a,
    async monitor(body = {}) {
      const res = await a.req("POST", "monitors", a.admin, {
        name: `m-${++n}`,
        check_type: "tcp",
        host: "127.0.0.1",
        config: { port: 22 },
        ...body,
      });
      expect(res.status, await res.clone().text()).toBe(201);
      return res.json();
    },
    async stored(id) {
      const [row] = await a.t.sql<{ id: number; config: Record<string, unknown>; secret_config: string | null }[]>`
        select id, config, secret_config from monitors where id = ${id}`;
      return row!;
    },
    async service(name, fields = {}) {
      const [row] = await a.t.sql<{ id: number }[]>`
        insert into services (name, slug, url, ip_address, ports) values (${name}, ${name}, ${fields.url ?? null}, ${fields.ip ?? null}, ${a.t.sql.json((fields.ports ?? []) as never)})
        returning id`;
      return row!.id;
    },
  };
}
