// What a UI socket presents: the credential in its handshake (bearer header first, like the HTTP
// middleware, then the svc_session cookie), whether the handshake came over TLS, and what a text frame
// from the client means.
import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import { parse as parseCookies } from "hono/utils/cookie";
import { bearerCredential, SESSION_COOKIE } from "../../shared/identity/credential.ts";
import { type CidrSet, parseIp } from "../../shared/net/cidr.ts";
import { stripPort } from "../../shared/net/client-ip.ts";

export function handshakeCredential(req: IncomingMessage): string | undefined {
  const bearer = bearerCredential(req.headers.authorization);
  if (bearer) return bearer;
  const cookie = req.headers.cookie;
  return cookie ? parseCookies(cookie, SESSION_COOKIE)[SESSION_COOKIE] || undefined : undefined;
}

/**
 * Spec 5.5.2: TLS on this socket, or a peer inside TRUSTED_PROXIES asserting X-Forwarded-Proto: https
 * (the first value: the proto the outermost trusted proxy saw). Anyone else's header is not read.
 */
export function isSecureHandshake(req: IncomingMessage, trustedProxies: CidrSet): boolean {
  if ((req.socket as Partial<TLSSocket>).encrypted) return true;
  const peer = req.socket.remoteAddress === undefined ? undefined : parseIp(stripPort(req.socket.remoteAddress));
  if (!peer || !trustedProxies.has(peer)) return false;
  const proto = req.headers["x-forwarded-proto"];
  const first = (Array.isArray(proto) ? proto[0] : proto)?.split(",")[0]?.trim().toLowerCase();
  return first === "https";
}

export type ClientFrame = { kind: "auth"; token: string } | { kind: "pong" } | { kind: "other" } | { kind: "malformed" };

const TOKEN = /^\S{1,4096}$/;

/** `{"type":"auth","token":"..."}`, a JSON string or the bare token; `{"type":"pong"}`; anything else. */
export function parseClientFrame(text: string): ClientFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const bare = text.trim();
    return TOKEN.test(bare) ? { kind: "auth", token: bare } : { kind: "malformed" };
  }
  if (typeof value === "string") return TOKEN.test(value) ? { kind: "auth", token: value } : { kind: "malformed" };
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { kind: "malformed" };
  const { type, token } = value as { type?: unknown; token?: unknown };
  if (type === "auth") return typeof token === "string" && TOKEN.test(token) ? { kind: "auth", token } : { kind: "malformed" };
  if (type === "pong") return { kind: "pong" };
  return typeof type === "string" ? { kind: "other" } : { kind: "malformed" };
}
