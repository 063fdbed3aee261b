// Secrets are never returned (docs/adr/0109-notifications-sink-secrets.md): a URL keeps its scheme, host and first
// path segment so an operator can tell sinks apart (`https://hooks.slack.com/services/•••`); anything else
// is the bare mask. A value sent back holding the mask means "keep what is stored".
export const MASK = "•••";

export function maskSecret(value: string): string {
  try {
    const url = new URL(value);
    if (!url.host) return MASK;
    const first = url.pathname.split("/").filter(Boolean)[0];
    return `${url.protocol}//${url.host}/${first ? `${first}/` : ""}${MASK}`;
  } catch {
    return MASK;
  }
}

/** True for a value a client echoed back from a read (it holds the mask character). */
export const isMasked = (value: string): boolean => value.includes("•");
