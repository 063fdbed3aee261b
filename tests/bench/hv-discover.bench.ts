// The hypervisor discover at size (issue 14: 20 nodes and 2,000 guests in under 10 s against the fake,
// and a re-run with nothing changed writes no rows): the fake Proxmox VE API (tests/helpers/fake-pve.ts,
// generator mode) on 127.0.44.9 over HTTPS, a provider config made over HTTP, then discoverHv through
// the in-process runtime three times: the first import, an unchanged re-run, and a run after 20 guests
// changed. The bench database allows loopback for the run (the fake is on 127/8) and is put back after;
// everything the bench imported is removed.
import { cryptoRandom } from "../../shared/clock.ts";
import { discoverHv } from "../../shared/verbs/integrations/hv/discover.ts";
import { systemContext } from "../../shared/verbs/verb-context.ts";
import { FAKE_PVE_TOKEN, generatedPveState, startFakePve } from "../helpers/fake-pve.ts";
import { api, type BenchContext, type BenchRow, round } from "./harness.ts";

const NODES = 20;
const GUESTS = 2_000;

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const { sql } = ctx;
  const [saved] = await sql<{ value: unknown }[]>`select value from app_settings where key = 'outbound_policy'`;
  await sql`insert into app_settings (key, value) values ('outbound_policy', ${sql.json({ allow_private: true, allow_loopback: true, allow_link_local: false })})
    on conflict (key) do update set value = excluded.value`;
  const pve = await startFakePve({ host: "127.0.44.9", state: generatedPveState({ nodes: NODES, guests: GUESTS }) });
  let configId: number | undefined;
  try {
    const config = (await api(ctx, "POST", "/api/v1/integrations/hv", {
      name: "bench",
      config_url: pve.url,
      api_token: FAKE_PVE_TOKEN,
      verify_ssl: false,
      auto_sync: false,
    })) as { id?: number; detail?: string };
    if (config.id === undefined) throw new Error(`creating the hv config failed: ${JSON.stringify(config).slice(0, 200)}`);
    configId = config.id;
    const vctx = systemContext({
      db: ctx.runtime.deps.database.lease().db,
      clock: { now: () => new Date() },
      random: cryptoRandom,
      outbound: ctx.runtime.deps.outbound,
      vault: ctx.runtime.deps.vault,
    });
    const timedRun = async () => {
      const requests = pve.requests.length;
      const t = performance.now();
      const out = await discoverHv(vctx, configId!, "manual", "bench");
      if (!out.ok) throw new Error(`discover failed: ${out.errors.join("; ")}`);
      return { out, ms: round(performance.now() - t), requests: pve.requests.length - requests };
    };
    const first = await timedRun();
    const again = await timedRun();
    for (let g = 0; g < 20; g++) pve.changeGuest(`qemu/${1000 + g * 3}`, { status: "stopped", maxmem: 4 * 1024 ** 3 });
    const changed = await timedRun();
    const guests = `${first.out.vms_imported} VMs + ${first.out.cts_imported} CTs on ${first.out.nodes_imported} nodes`;
    return [
      {
        name: `discover ${NODES} nodes / ${GUESTS} guests, first import`,
        total_ms: first.ms,
        note: `${guests}; ${first.out.rows_written} rows written; ${first.requests} API calls; target < 10,000 ms`,
      },
      {
        name: "discover re-run, nothing changed",
        total_ms: again.ms,
        note: `${again.out.rows_written} rows written (target 0), ${again.out.vanished.length} vanished`,
      },
      { name: "discover after 20 guests changed", total_ms: changed.ms, note: `${changed.out.rows_written} rows written` },
    ];
  } finally {
    await pve.close();
    if (configId !== undefined) {
      const source = `hv:${configId}`;
      await sql`delete from compute_units where id in (select entity_id from external_refs where source = ${source} and entity_type = 'compute_unit')`;
      await sql`delete from storage where id in (select entity_id from external_refs where source = ${source} and entity_type = 'storage')`;
      await sql`delete from networks where id in (select entity_id from external_refs where source = ${source} and entity_type = 'network')`;
      await sql`delete from hardware where id in (select entity_id from external_refs where source = ${source} and entity_type = 'hardware')`;
      await sql`delete from external_refs where source = ${source}`;
      await sql`delete from hv_discover_runs where integration_id = ${configId}`;
      await sql`delete from integration_configs where id = ${configId}`;
    }
    if (saved) await sql`update app_settings set value = ${sql.json(saved.value as never)} where key = 'outbound_policy'`;
    else await sql`delete from app_settings where key = 'outbound_policy'`;
  }
}
