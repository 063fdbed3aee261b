// Runs one check of any type inside its time budget: the per-type timeout of the config (default and
// bound in the type's registry entry, shared/domain/monitors/check-types.ts), enforced by an abort
// signal the check honours and, behind it, a hard stop that answers "timeout" even if a check ignored
// its signal. So a hanging target costs its own check its timeout and nothing else, and runCheck never
// throws.
import { checkBudget as typeBudget, isProbeCheckType, type ProbeCheckType } from "../../shared/domain/monitors/check-types.ts";
import { dnsCheck } from "./dns.ts";
import { httpCheck } from "./http.ts";
import { icmpCheck } from "./icmp.ts";
import { gateCheck, type ReachOptions } from "./reach.ts";
import { type Check, type CheckOutcome, type CheckSpec, failed } from "./result.ts";
import { tcpCheck } from "./tcp.ts";
import { mysqlCheck } from "./mysql.ts";
import { postgresCheck } from "./postgres.ts";
import { redisCheck } from "./redis.ts";
import { smtpCheck } from "./smtp.ts";
import { sshCheck } from "./ssh.ts";
import { tlsCheck } from "./tls.ts";
import { grpcCheck } from "./grpc.ts";
import { udpCheck } from "./udp.ts";
import { websocketCheck } from "./websocket.ts";
import { snmpCheck } from "./snmp.ts";
import { mqttCheck } from "./mqtt.ts";
import { dockerCheck } from "./docker.ts";

export type { CheckOutcome, CheckSpec };

export interface RunCheckOptions extends ReachOptions {
  /** The ping executable (tests: a missing one). */
  pingCommand?: string;
  /** Aborts the check early (the worker stopping). */
  signal?: AbortSignal;
}

/** One executor per registered probe type: a type without one does not compile. The reference agent runs them too. */
export const EXECUTORS: Record<ProbeCheckType, (options: RunCheckOptions) => Check> = {
  icmp: (options) => icmpCheck(options.pingCommand),
  tcp: () => tcpCheck,
  http: () => httpCheck,
  dns: () => dnsCheck,
  // Database checks (issue 29 item 2).
  postgres: () => postgresCheck,
  mysql: () => mysqlCheck,
  redis: () => redisCheck,
  ssh: () => sshCheck,
  tls: () => tlsCheck,
  smtp: () => smtpCheck,
  grpc: () => grpcCheck,
  websocket: () => websocketCheck,
  udp: () => udpCheck,
  // snmp, mqtt, docker (issue 29 item 2).
  snmp: () => snmpCheck,
  mqtt: () => mqttCheck,
  docker: () => dockerCheck,
};

/** The check's timeout (ms) and its whole budget (ms): the type's registry entry decides. */
export const checkBudget = (spec: Pick<CheckSpec, "check_type" | "config">) => typeBudget(spec.check_type, spec.config);

export async function runCheck(spec: CheckSpec, options: RunCheckOptions = {}): Promise<CheckOutcome> {
  // The column is typed, yet a row written by hand may hold anything: a failed check, not a throw. Push and
  // group monitors have no executor: their results come from pushes and from their members.
  if (!isProbeCheckType(spec.check_type)) return failed(`no executor for check type ${String(spec.check_type)}`);
  const check = EXECUTORS[spec.check_type](options);
  const { timeoutMs, budgetMs } = checkBudget(spec);
  const controller = new AbortController();
  const onStop = () => controller.abort();
  options.signal?.addEventListener("abort", onStop);
  let timer: NodeJS.Timeout | undefined;
  const hardStop = new Promise<CheckOutcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      // The check has a moment to answer with what it knows; then "timeout" is the answer.
      setTimeout(() => resolve(failed(`timeout after ${budgetMs / 1000} s`)), 250).unref();
    }, budgetMs);
  });
  try {
    const gatedCheck = async (): Promise<CheckOutcome> => {
      const gated = await gateCheck(spec, options);
      return "refused" in gated ? failed(gated.refused) : check(gated.spec, controller.signal, timeoutMs);
    };
    return await Promise.race([gatedCheck().catch((e: unknown) => failed(`check failed: ${String(e)}`)), hardStop]);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onStop);
  }
}
