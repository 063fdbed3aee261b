// The URL-holding keys of PUT /settings against the outbound policy in force after the change, one issue
// per refused URL naming its place (cve_feed_sources[2]): the URL as written, then the addresses its name
// resolves to (shared/net/resolved-host.ts). The message names the host at most, never the path or query
// (a feed's token may live there). public_url is our own address, not a destination (ADR 0330).
import { checkOutboundUrl, type OutboundPolicy } from "../../domain/net/outbound-policy.ts";
import type { ValidationIssue } from "../../errors.ts";
import { type HostResolver, savedUrlRefusal } from "../../net/resolved-host.ts";
import type { SettingKey } from "../../settings/defaults.ts";

/**
 * `stored`: the list before the change. Its entries sent back unchanged (a form saves every field) are not
 * judged again here: the fetch judges them, and a tightened policy does not block saving other settings.
 */
export async function outboundIssues(
  changes: Partial<Record<SettingKey, unknown>>,
  stored: unknown,
  policy: OutboundPolicy,
  resolve: HostResolver | undefined,
): Promise<ValidationIssue[]> {
  const sources = changes.cve_feed_sources;
  if (!Array.isArray(sources)) return [];
  const known = new Set(Array.isArray(stored) ? stored : []);
  const judged = await Promise.all(
    sources.map(async (source: unknown, i): Promise<ValidationIssue | null> => {
      // File paths are read from this host's disk, not fetched.
      if (typeof source !== "string" || !/^https?:/i.test(source) || known.has(source)) return null;
      const check = checkOutboundUrl(source, policy);
      const reason = check.ok ? await savedUrlRefusal(resolve, source, policy) : check.message;
      if (reason === null) return null;
      return {
        loc: ["body", "cve_feed_sources", i],
        msg: `cve_feed_sources[${i}]: ${check.ok ? `The URL's host is not allowed: ${reason}.` : reason}`,
        type: "value_error",
      };
    }),
  );
  return judged.filter((i): i is ValidationIssue => i !== null);
}
