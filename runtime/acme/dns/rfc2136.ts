// dns-01 through RFC 2136 DNS UPDATE signed with TSIG (RFC 8945), sent over TCP to the configured
// server (the primary of the zone: BIND, Knot, PowerDNS, Technitium...). The zone is the owner of the SOA
// the server answers for the record's name (RFC 2136 needs it in the zone section); the server's answer
// must carry a TSIG that verifies with our key, so a forged NOERROR cannot pass.
import type { OutboundPolicy } from "../../../shared/domain/net/outbound-policy.ts";
import { type DnsProvider, providerFailed } from "./provider.ts";
import { type DnsServer, DnsTransportError, exchange, serverLabel } from "./transport.ts";
import {
  buildQuery,
  buildTxtUpdate,
  newMessageId,
  parseMessage,
  RCODES,
  signMessage,
  TYPE,
  type TsigKey,
  tsigError,
  verifyAnswer,
} from "./wire.ts";

export interface Rfc2136Settings {
  server: string;
  port: number;
  tsig_name: string;
  tsig_algorithm: string;
  /** base64, as the settings store it */
  tsig_secret: string;
}

export interface Rfc2136Options {
  policy: OutboundPolicy;
  /** Per exchange. */
  timeoutMs?: number;
  nowSeconds?: () => number;
}

const KIND = "rfc2136";

export function rfc2136Provider(settings: Rfc2136Settings, options: Rfc2136Options): DnsProvider {
  const server: DnsServer = { host: settings.server, port: settings.port };
  const key: TsigKey = {
    name: settings.tsig_name,
    algorithm: settings.tsig_algorithm,
    secret: Buffer.from(settings.tsig_secret, "base64"),
  };
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  const zones = new Map<string, string>();
  const extra = { dns_server: serverLabel(server) };

  async function ask(message: Buffer, action: string, fqdn: string, signal?: AbortSignal) {
    try {
      const answer = parseMessage(await exchange(server, message, { policy: options.policy, timeoutMs, ...(signal ? { signal } : {}) }));
      if (answer.id !== message.readUInt16BE(0))
        throw providerFailed(KIND, action, fqdn, `${serverLabel(server)} answered another message id`, extra);
      return answer;
    } catch (err) {
      if (err instanceof DnsTransportError || err instanceof RangeError) throw providerFailed(KIND, action, fqdn, err.message, extra);
      throw err;
    }
  }

  async function zoneOf(fqdn: string, signal?: AbortSignal): Promise<string> {
    const known = zones.get(fqdn);
    if (known) return known;
    const answer = await ask(buildQuery(newMessageId(), fqdn, TYPE.SOA), "find the zone of", fqdn, signal);
    if (answer.rcode !== 0 && answer.rcode !== 3)
      throw providerFailed(
        KIND,
        "find the zone of",
        fqdn,
        `${serverLabel(server)} answered the SOA query ${RCODES[answer.rcode] ?? answer.rcode}`,
        extra,
      );
    const soa = [...answer.answers, ...answer.authority].find((rr) => rr.type === TYPE.SOA);
    if (!soa)
      throw providerFailed(
        KIND,
        "find the zone of",
        fqdn,
        `${serverLabel(server)} is not authoritative for it (no SOA in its answer)`,
        extra,
      );
    zones.set(fqdn, soa.name);
    return soa.name;
  }

  async function update(fqdn: string, value: string, op: "add" | "delete", signal?: AbortSignal): Promise<void> {
    const action = op === "add" ? "add" : "delete";
    const zone = await zoneOf(fqdn, signal);
    const { signed, mac } = signMessage(buildTxtUpdate(newMessageId(), zone, fqdn, value, op), key, now());
    const answer = await ask(signed, action, fqdn, signal);
    if (answer.rcode !== 0) {
      const tsig = tsigError(answer);
      throw providerFailed(
        KIND,
        action,
        fqdn,
        `${serverLabel(server)} answered ${RCODES[answer.rcode] ?? `rcode ${answer.rcode}`}${tsig ? ` (TSIG ${tsig})` : ""} for zone ${zone}`,
        { ...extra, zone },
      );
    }
    const check = verifyAnswer(answer, key, mac, now());
    if (check.problem)
      throw providerFailed(KIND, action, fqdn, `${serverLabel(server)} answered NOERROR but ${check.problem}`, { ...extra, zone });
  }

  return {
    kind: KIND,
    present: (fqdn, value, signal) => update(fqdn, value, "add", signal),
    cleanup: (fqdn, value) => update(fqdn, value, "delete"),
    authoritative: async () => [server],
  };
}
