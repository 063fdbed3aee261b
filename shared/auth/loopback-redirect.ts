// Where a native app's authorization code may go (RFC 8252, sections 7.3 and 8.3): only back to the
// machine the browser runs on, on an IP loopback literal with the port the app listens on. "localhost"
// is refused (a resolver or hosts file may point it elsewhere), and so is any other host, scheme, a user
// part, a query (the code and state are the only parameters) or a fragment. Pure, so the console shows
// the same refusal before anything is sent.

/** The loopback hosts as URL spells them. */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]"]);
const MAX_LENGTH = 512;

/** Why `uri` is not a loopback redirect URI, or undefined when it is one. */
export function loopbackRedirectProblem(uri: string): string | undefined {
  if (uri.length > MAX_LENGTH) return `redirect_uri must be at most ${MAX_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "redirect_uri is not a URL.";
  }
  if (url.protocol !== "http:" || !LOOPBACK_HOSTS.has(url.hostname))
    return "redirect_uri must be http://127.0.0.1:<port>/... or http://[::1]:<port>/... (a loopback address, RFC 8252).";
  if (url.port === "") return "redirect_uri must name the port the CLI listens on.";
  if (url.username !== "" || url.password !== "") return "redirect_uri must not carry a user name or password.";
  if (url.search !== "" || url.hash !== "" || uri.includes("#")) return "redirect_uri must not have a query or a fragment.";
  return undefined;
}

/** `uri` (a checked loopback URI) with `params` as its query: the browser's way back to the CLI. */
export function redirectWith(uri: string, params: Record<string, string>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}
