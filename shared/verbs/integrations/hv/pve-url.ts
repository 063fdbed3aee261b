// A Proxmox VE base URL as an operator types it ("pve1.lan", "https://10.0.0.5:8006/", ".../api2/json")
// normalised to scheme://host:port: https when no scheme is given, port 8006 (pveproxy's) when none.

export function normalisePveUrl(raw: string): { ok: true; value: string } | { ok: false; message: string } {
  let text = raw.trim();
  if (!text) return { ok: false, message: "The Proxmox VE URL is empty." };
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) text = `https://${text}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: "Not a URL: expected https://host:8006 or a host name." };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { ok: false, message: "The Proxmox VE URL must be https:// (or http://)." };
  if (url.username || url.password)
    return { ok: false, message: "The Proxmox VE URL must not carry a user or password: give the API token instead." };
  if (url.search || url.hash) return { ok: false, message: "The Proxmox VE URL must not carry a query or fragment." };
  const path = url.pathname.replace(/\/+$/, "").replace(/\/api2\/json$/, "");
  if (path !== "") return { ok: false, message: "The Proxmox VE URL names only the host and port (the API lives at /api2/json)." };
  // URL elides a scheme's default port (https://h:443 → port ""): an explicit one is read from the text.
  const explicit = /^[a-z]+:\/\/(\[[^\]]*\]|[^/:]*):(\d+)/i.exec(text)?.[2];
  const port = explicit ? url.port || explicit : "8006";
  return { ok: true, value: `${url.protocol}//${url.hostname}:${port}` };
}
