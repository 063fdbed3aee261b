// A hypervisor config's API client: its token opened from the vault, its URL, verify_ssl and CA, under
// the installation's outbound policy. A missing or malformed stored token is the reference's 400.
import type { Db } from "../../../db/database.ts";
import type { OutboundPolicy } from "../../../domain/net/outbound-policy.ts";
import { ApiError } from "../../../errors.ts";
import type { OutboundHttp } from "../../../net/outbound.ts";
import type { Vault } from "../../../vault/vault.ts";
import { readOutboundPolicy } from "../outbound-policy.ts";
import { openCredential } from "../providers/credential.ts";
import type { ConfigRow } from "../providers/provider-config.ts";
import { type PveClient, PveError, parsePveToken, pveClient } from "./pve-client.ts";
import { outboundOf, vaultOf, type VerbContext } from "../../verb-context.ts";

export interface HvDeps {
  outbound: OutboundHttp;
  vault: Vault;
}

/** What a hypervisor client needs of a verb's context: its outbound client and its vault. */
export const hvDepsOf = (ctx: VerbContext): HvDeps => ({ outbound: outboundOf(ctx), vault: vaultOf(ctx) });

/** The reference's words (ValueError → 400 on test and discover). */
export const BAD_TOKEN = "Invalid Proxmox API token format. Expected: user@realm!tokenname=secret";

export async function hvApiFor(deps: HvDeps, row: ConfigRow, policy: OutboundPolicy): Promise<PveClient> {
  let token: string | null;
  try {
    token = await openCredential(deps.vault, row);
  } catch {
    throw new ApiError("SERVICE_NOT_READY", "The stored API token cannot be opened with this process's vault key.");
  }
  if (!token || !parsePveToken(token).ok) throw new ApiError("BAD_REQUEST", BAD_TOKEN);
  try {
    return pveClient({ outbound: deps.outbound, baseUrl: row.config_url, token, verifySsl: row.verify_ssl, caPem: row.ca_cert, policy });
  } catch (e) {
    if (e instanceof PveError) throw new ApiError("BAD_REQUEST", e.message);
    throw e;
  }
}

export async function openHvApi(db: Db, deps: HvDeps, row: ConfigRow): Promise<PveClient> {
  return hvApiFor(deps, row, await readOutboundPolicy(db));
}
