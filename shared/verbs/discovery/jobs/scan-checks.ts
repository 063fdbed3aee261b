// The checks a scan request and a profile share, each refusing with a 422 that names the field: targets
// inside the allowed set and under the cap, known and built scan types (never docker/lldp mixed in a
// sweep), a port list or preset, nmap only when the worker found it installed, and an agent that may run
// the job (D's eligibility). Pure where they can be; the database ones only read.
import type { Db } from "../../../db/database.ts";
import { parseNmapArguments } from "../../../domain/discovery/nmap-arguments.ts";
import { resolvePorts } from "../../../domain/discovery/ports.ts";
import { AGENT_SCAN_TYPES, DEFAULT_SCAN_TYPES, normaliseScanTypes } from "../../../domain/discovery/scan-types.ts";
import { MAX_SCAN_ADDRESSES, parseTargets, type TargetSet } from "../../../domain/discovery/targets.ts";
import { ApiError, type ValidationIssue } from "../../../errors.ts";
import { agentEligibility } from "../agents/eligibility.ts";
import { capabilityState, readReadiness } from "../control/readiness-state.ts";

/** `targets[2]` -> ["body", "targets", 2]: the loc of a field a domain check named. */
export function locOf(field: string): (string | number)[] {
  return [
    "body",
    ...field
      .split(/[.[\]]+/)
      .filter(Boolean)
      .map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
  ];
}

export function invalid(field: string, msg: string, type = "invalid"): ApiError {
  return ApiError.validation([{ loc: locOf(field), msg, type } satisfies ValidationIssue]);
}

/**
 * One job's targets: `targets` parsed under `allowed` and the cap. `field` is where they came from in the
 * body (`cidr`, `cidrs[3]`, `targets`): an error about the n-th target is named at field[n], or at field
 * itself when the body gave it one value.
 */
export function checkTargets(targets: string[], exclude: string[], allowed: readonly string[], field: string, single = false): TargetSet {
  const parsed = parseTargets({ targets, exclude, allowed, cap: MAX_SCAN_ADDRESSES, field: "targets" });
  if (parsed.ok) return parsed.value;
  const named = parsed.field.startsWith("targets") ? (single ? field : parsed.field.replace(/^targets/, field)) : parsed.field;
  throw invalid(named, parsed.message, parsed.message.includes("at most") ? "too_many_addresses" : "invalid_target");
}

/** Scan types by the reference's rules; omitted means the default sweep (server) or a connect scan (agent). */
export function checkScanTypes(list: readonly string[] | null | undefined, agentId: number | null, field = "scan_types"): string[] {
  const given = list ?? (agentId === null ? DEFAULT_SCAN_TYPES : [AGENT_SCAN_TYPES[0]]);
  const result = normaliseScanTypes(given, agentId);
  if (!result.ok) throw invalid(field, result.message, "scan_type");
  return result.value;
}

export function checkPorts(input: { tcp_ports?: number[] | null | undefined; ports_preset?: string | null | undefined }): number[] {
  const result = resolvePorts({ tcp_ports: input.tcp_ports ?? null, ports_preset: input.ports_preset ?? null });
  if (!result.ok) throw invalid(result.field, result.message, "ports");
  return result.value;
}

/** nmap arguments pass the engine's whitelist (no output files, scripts, target lists or spoofing). */
export function checkNmapArguments(raw: string | null | undefined): string | null {
  if (!raw?.trim()) return null;
  const parsed = parseNmapArguments(raw);
  if (!parsed.ok) throw invalid("nmap_arguments", parsed.message, "nmap_arguments");
  return raw.trim();
}

/** A type whose tool the worker found missing is refused now, never run into an empty result. */
export async function checkTools(db: Db, scanTypes: readonly string[], field = "scan_types"): Promise<void> {
  if (!scanTypes.includes("nmap")) return;
  const readiness = await readReadiness(db);
  if (capabilityState(readiness, "nmap") === "unavailable") {
    const why = readiness.capabilities.find((c) => c.key === "nmap")?.explanation;
    throw invalid(
      field,
      `Scan type 'nmap' is not available: nmap is not installed on the scanning host${why ? ` (${why})` : ""}. Choose icmp, tcp, dns, arp, banner or http instead.`,
      "tool_missing",
    );
  }
}

/** The agent may run a job over `targets` (or, for a profile without targets yet, at all). */
export async function checkAgent(db: Db, agentId: number, targets: TargetSet | null, now: Date): Promise<void> {
  const verdict = await agentEligibility(db, agentId, targets, { now });
  if (verdict.eligible) return;
  // The reference answered detail {reason, detail, message}; spec 7.1 keeps `detail` a string, so the
  // machine reason rides beside it like the monitors' agent refusals (`reason`, plus its `reason_detail`).
  throw new ApiError("VALIDATION_ERROR", verdict.message, {
    fields: { scan_agent_id: verdict.message },
    reason: verdict.reason,
    reason_detail: verdict.detail,
  });
}
