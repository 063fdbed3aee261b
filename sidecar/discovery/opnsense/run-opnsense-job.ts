// The runner of an `opnsense` scan job: reads the configured firewall's ARP table and DHCP leases (ISC
// dhcpd or Kea) through deps.outbound under the SSRF policy (shared/verbs/settings/firewall-api.ts),
// joins them into one finding per host (firewall-hosts.ts) and records them as the job's results, matched
// to the inventory and merged like any other. The firewall facts the results have no column for (the
// interface, the lease's state and type) are one DEBUG log line per host. A firewall that is not
// configured or refuses the key fails the job with that sentence and a reason (firewall_not_configured,
// firewall_refused, firewall_unreachable, firewall_error).
import { findingOf, firewallHosts } from "../../../shared/domain/discovery/firewall-hosts.ts";
import type { OutboundHttp } from "../../../shared/net/outbound.ts";
import { FIREWALL_PATHS, FirewallError, firewallGet, firewallLeases, firewallTarget } from "../../../shared/verbs/settings/firewall-api.ts";
import type { JobRun, JobRunner } from "../job-runner.ts";

/** Findings recorded per transaction. */
const BATCH = 500;

export function opnsenseRunner(outbound: OutboundHttp): JobRunner {
  return async (run: JobRun) => {
    const target = await firewallTarget(run.ctx.db, run.vault).catch(
      () => "The stored API credentials cannot be opened with this server's vault key",
    );
    if (typeof target === "string") throw new FirewallError(`${target}: set it with PATCH /settings/firewall`, "firewall_not_configured");
    run.progress({ done: 0, total: 1, phase: "firewall", message: `Reading the ARP table and DHCP leases of ${target.base}` });
    run.log("INFO", "firewall", `Reading the ARP table and DHCP leases of ${target.base}`);
    const arp = await firewallGet(outbound, target, FIREWALL_PATHS.arp, run.signal);
    if (arp !== null && !Array.isArray(arp)) throw new FirewallError("The firewall's ARP answer is not a list: is this an OPNsense API?");
    if (arp === null)
      run.log("WARNING", "firewall", "The firewall has no ARP table endpoint (diagnostics module missing); using its DHCP leases only");
    const leases = await firewallLeases(outbound, target, run.signal);
    if (leases.body === null)
      run.log("WARNING", "firewall", "The firewall serves no DHCP leases (neither ISC dhcpd nor Kea); using its ARP table only");
    if (run.signal.aborted) return;
    const { hosts, skipped } = firewallHosts(arp, leases.body, leases.kea);
    for (const h of hosts) {
      const where = h.interface ? ` on ${h.interface}${h.interface_description ? ` (${h.interface_description})` : ""}` : "";
      const lease = h.lease_state ? `, lease ${h.lease_state}${h.lease_type ? ` (${h.lease_type})` : ""}` : ", no lease";
      run.log("DEBUG", "firewall", `${h.ip_address} ${h.mac_address ?? "no MAC"}${where}${lease}`, { ...h });
    }
    for (let i = 0; i < hosts.length && !run.signal.aborted; i += BATCH) await run.recordHosts(hosts.slice(i, i + BATCH).map(findingOf));
    const message = `The firewall knows ${hosts.length} hosts (${leases.kea ? "Kea" : "ISC dhcpd"} leases); ${skipped} expired or inactive entries left out`;
    run.log("INFO", "firewall", message, { hosts: hosts.length, skipped, kea: leases.kea });
    run.progress({ done: 1, total: 1, phase: "firewall", message });
  };
}
