// What the system `ping` (iputils or busybox) prints, read: its summary lines and why it could not run.
// The icmp check (checks/icmp.ts), the one-shot ping and the batch sweep all read it here, so they agree
// on what a reply is.

export interface PingSummary {
  transmitted: number;
  received: number;
  loss_pct: number;
  rtt: { min: number; avg: number; max: number; mdev: number } | null;
}

/** The "N packets transmitted, M received" and "rtt min/avg/max/mdev" lines of iputils (or busybox) ping. */
export function parsePing(stdout: string): PingSummary | null {
  const counts = /(\d+) packets transmitted, (\d+) (?:packets )?received/.exec(stdout);
  if (!counts) return null;
  const transmitted = Number(counts[1]);
  const received = Number(counts[2]);
  const rtt = /= ([\d.]+)\/([\d.]+)\/([\d.]+)(?:\/([\d.]+))? ms/.exec(stdout);
  return {
    transmitted,
    received,
    loss_pct: transmitted ? Math.round(((transmitted - received) / transmitted) * 10000) / 100 : 100,
    rtt: rtt ? { min: Number(rtt[1]), avg: Number(rtt[2]), max: Number(rtt[3]), mdev: Number(rtt[4] ?? 0) } : null,
  };
}

/** Why ping could not run at all, from its error output; null when it ran. */
export function pingFault(stderr: string): string | null {
  if (/operation not permitted|permission denied|cap_net_raw|socket:/i.test(stderr))
    return `ping is not permitted here (${stderr.trim().split("\n")[0]}): allow unprivileged ICMP (sysctl net.ipv4.ping_group_range) or give ping cap_net_raw`;
  return null;
}
