// What every service verb receives: the database handle, the injected clock and randomness, who is
// acting from where, and the infrastructure a verb may reach (the vault, the outbound HTTP client).
// Infrastructure travels here, never as a field of a verb's input: the input is what the caller asks
// for, the context is what the process provides (ADR 0411).
import type { Clock, Random } from "../clock.ts";
import type { Db } from "../db/database.ts";
import type { OutboundHttp } from "../net/outbound.ts";
import type { HostResolver } from "../net/resolved-host.ts";
import type { Vault } from "../vault/vault.ts";
import { type Actor, SYSTEM_ACTOR } from "./actor.ts";

export interface VerbContext {
  db: Db;
  clock: Clock;
  random: Random;
  actor?: Actor | undefined;
  ip?: string | null;
  requestId?: string;
  /** This process's credential cache, flushed when a verb commits a security-relevant change. */
  credentialCache?: { flush(): void } | undefined;
  /** Resolves a name as this process would connect to it (Node); saved hosts are judged by their addresses (shared/net/resolved-host.ts). */
  resolveHost?: HostResolver | undefined;
  /** The installation's vault, which seals and opens secrets at rest; every request carries it, a worker when it holds one. */
  vault?: Vault | undefined;
  /** Every request to an operator-configured URL, under the SSRF policy; every request carries it, a worker when it holds one. */
  outbound?: OutboundHttp | undefined;
}

/** The infrastructure a system context may carry along (a worker's vault and outbound client). */
type SystemInfrastructure = Partial<Pick<VerbContext, "vault" | "outbound" | "resolveHost">>;

/** The context of work the system does on its own (jobs, workers, pollers): the system actor, no address. */
export function systemContext(deps: Pick<VerbContext, "db" | "clock" | "random"> & SystemInfrastructure): VerbContext {
  const ctx: VerbContext = { db: deps.db, clock: deps.clock, random: deps.random, actor: SYSTEM_ACTOR, ip: null };
  if (deps.vault) ctx.vault = deps.vault;
  if (deps.outbound) ctx.outbound = deps.outbound;
  if (deps.resolveHost) ctx.resolveHost = deps.resolveHost;
  return ctx;
}

/** The vault of this context; a verb that seals or opens a secret calls it, and a context without one is a wiring fault. */
export function vaultOf(ctx: VerbContext): Vault {
  if (!ctx.vault) throw new Error("This verb needs the vault, and its context carries none (give systemContext the process's vault).");
  return ctx.vault;
}

/** The outbound HTTP client of this context; like vaultOf, a context without one is a wiring fault. */
export function outboundOf(ctx: VerbContext): OutboundHttp {
  if (!ctx.outbound)
    throw new Error("This verb calls out over HTTP, and its context carries no outbound client (give systemContext the process's).");
  return ctx.outbound;
}
