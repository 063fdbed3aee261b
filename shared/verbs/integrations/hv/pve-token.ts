// The Proxmox VE API token as one string, `user@realm!tokenid=secret` (what PVE shows when the token is
// created, and what the `Authorization: PVEAPIToken=...` header carries). Parsed up front so a typo is a
// 422 naming the field rather than a 401 from the cluster later.

export interface PveToken {
  user: string;
  realm: string;
  tokenid: string;
  secret: string;
}

const TOKEN = /^([^\s@!=:]+)@([A-Za-z][A-Za-z0-9.\-_]*)!([A-Za-z][A-Za-z0-9.\-_]*)=(\S+)$/;

export function parsePveToken(raw: string): { ok: true; value: PveToken } | { ok: false; message: string } {
  const text = raw.trim().replace(/^PVEAPIToken=/, "");
  const m = TOKEN.exec(text);
  if (!m)
    return {
      ok: false,
      message: "Expected a Proxmox VE API token as user@realm!tokenid=secret (e.g. root@pam!inventory=xxxxxxxx-xxxx-...).",
    };
  return { ok: true, value: { user: m[1]!, realm: m[2]!, tokenid: m[3]!, secret: m[4]! } };
}

/** The Authorization header's value for a token. */
export const pveAuthorization = (t: PveToken): string => `PVEAPIToken=${t.user}@${t.realm}!${t.tokenid}=${t.secret}`;
