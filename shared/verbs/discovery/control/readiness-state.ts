// What the discovery worker last learned about the scan tools of its host (app_settings
// `discovery_readiness`, written from the engine's probe), as GET /discovery/readiness answers it. Before
// any worker stored one the answer says so ("unknown", every capability unknown) instead of guessing.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { appSettings } from "../../../db/schema/index.ts";
import type { ReadinessOut } from "../../../schemas/discovery.ts";

export const DISCOVERY_READINESS_KEY = "discovery_readiness";

const CAPABILITY_KEYS = ["icmp", "tcp", "dns", "arp", "nmap", "snmp", "docker"] as const;

type Capability = ReadinessOut["capabilities"][number];

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

function capabilityOf(raw: unknown): Capability | null {
  if (typeof raw !== "object" || raw === null) return null;
  const c = raw as Record<string, unknown>;
  const key = str(c.key);
  if (!key) return null;
  return {
    key,
    title: str(c.title) ?? key,
    state: str(c.state) ?? "unknown",
    explanation: str(c.explanation) ?? "",
    reason_code: str(c.reason_code),
    last_healed_at: str(c.last_healed_at),
    last_error: str(c.last_error),
  };
}

const unknownReadiness = (): ReadinessOut => ({
  state: "unknown",
  checked_at: null,
  helper_installed: false,
  capabilities: CAPABILITY_KEYS.map((key) => ({
    key,
    title: key,
    state: "unknown",
    explanation: "The discovery worker has not probed this host's scan tools yet (no sidecar with the discovery worker has run).",
    reason_code: "not_probed",
    last_healed_at: null,
    last_error: null,
  })),
});

export async function readReadiness(db: Db): Promise<ReadinessOut> {
  const [row] = await db
    .select({ value: appSettings.value, updated_at: appSettings.updated_at })
    .from(appSettings)
    .where(eq(appSettings.key, DISCOVERY_READINESS_KEY));
  const value = row?.value as Record<string, unknown> | undefined;
  if (!value || typeof value !== "object" || !Array.isArray(value.capabilities)) return unknownReadiness();
  return {
    state: "known",
    checked_at: str(value.checked_at) ?? row!.updated_at.toISOString(),
    helper_installed: value.helper_installed === true,
    capabilities: value.capabilities.map(capabilityOf).filter((c): c is Capability => c !== null),
  };
}

/** The stored state of one capability ("unknown" when never probed). */
export function capabilityState(readiness: ReadinessOut, key: string): string {
  return readiness.capabilities.find((c) => c.key === key)?.state ?? "unknown";
}
