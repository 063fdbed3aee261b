// Works out who the client is once per request (spec 8.1): the socket peer, or the forwarded chain
// when the peer is a trusted proxy. Rate limits, audit entries and the Secure cookie flag all read it.
import type { MiddlewareHandler } from "hono";
import { CidrSet, formatIp, parseIp } from "../../shared/net/cidr.ts";
import { clientAddress as resolveClient, stripPort, UNKNOWN_CLIENT } from "../../shared/net/client-ip.ts";
import type { AppEnv, Deps } from "../deps.ts";

export function clientAddress(deps: Deps): MiddlewareHandler<AppEnv> {
  const trustedProxies = new CidrSet(deps.config.TRUSTED_PROXIES);
  return async (c, next) => {
    // Node hands the socket peer in through deps; workerd has no socket but Cloudflare sets this header.
    const peer = deps.peerAddress ? deps.peerAddress(c) : c.req.header("cf-connecting-ip");
    const peerIp = peer === undefined ? undefined : parseIp(stripPort(peer));
    c.set("viaTrustedProxy", peerIp !== undefined && trustedProxies.has(peerIp));
    const client = resolveClient({ peer, forwardedFor: c.req.header("x-forwarded-for"), trustedProxies });
    c.set("clientIp", client ? formatIp(client) : UNKNOWN_CLIENT);
    return next();
  };
}
