// A Proxmox VE guest's power action (start, stop, reboot, shutdown, reset, suspend, resume): a
// high-impact operation, run by the route behind the confirmation headers. What Proxmox refuses (or a
// network failure) is answered {ok: false, error} with 200 as the reference does, and audited like a
// success: the operator's attempt is on record either way.
import { ApiError } from "../../../errors.ts";
import { defineVerb } from "../../verb.ts";
import { findConfig } from "../providers/read-configs.ts";
import { HV_NOT_FOUND } from "../providers/write-configs.ts";
import { safeMessage } from "../providers/safe-message.ts";
import { WRITE_INTEGRATIONS } from "../scopes.ts";
import { hvDepsOf, openHvApi } from "./hv-connection.ts";
import { PVE_GUEST_ACTIONS, type PveGuestAction, type PveGuestType } from "./pve-api.ts";

export const GUEST_TYPES = ["qemu", "lxc"] as const;

/** The reference's 400 for a vm_type other than qemu or lxc (checked before the confirmation). */
export function requireGuestType(raw: string): PveGuestType {
  if ((GUEST_TYPES as readonly string[]).includes(raw)) return raw as PveGuestType;
  throw new ApiError("BAD_REQUEST", `Invalid vm_type '${raw.slice(0, 32)}'. Must be 'qemu' or 'lxc'.`);
}

/** The confirmation action a client repeats in x-svc-confirmation, e.g. "hv-guest-stop". */
export const guestActionName = (action: PveGuestAction) => `hv-guest-${action}`;
export { PVE_GUEST_ACTIONS };

export interface GuestActionIn {
  id: number;
  node: string;
  vmType: PveGuestType;
  vmid: number;
  action: PveGuestAction;
}

export type GuestActionOut = { ok: true; upid: string } | { ok: false; error: string };

export const runGuestAction = defineVerb<GuestActionIn, GuestActionOut>(
  { scope: WRITE_INTEGRATIONS },
  async (s, { id, node, vmType, vmid, action }) => {
    const row = await findConfig(s.tx, "hv", id, HV_NOT_FOUND);
    const api = await openHvApi(s.tx, hvDepsOf(s.ctx), row);
    let out: GuestActionOut;
    try {
      out = { ok: true, upid: await api.guestAction(node, vmType, vmid, action) };
    } catch (e) {
      out = { ok: false, error: safeMessage(e) };
    }
    s.audit({
      action: `integrations.hv.guest.${action}`,
      category: "integrations",
      level: out.ok ? "info" : "warning",
      entity_type: "integration_config",
      entity_id: id,
      diff: { node, vm_type: vmType, vmid, action, ok: out.ok, ...(out.ok ? { upid: out.upid } : { error: out.error }) },
    });
    return out;
  },
);
