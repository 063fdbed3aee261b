// The browser's side of an OAuth sign-in in the API tests: the start answer's svc_oauth_state cookie,
// sent back with the callback as the browser that started the sign-in would.
export function stateCookieOf(res: Response): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith("svc_oauth_state="));
  if (!set) throw new Error(`the start answer (${res.status}) set no svc_oauth_state cookie`);
  return set.split(";")[0]!;
}

/** Request init carrying the state cookie of `start` (the answer of a start or link route). */
export function fromSameBrowser(start: Response, init: RequestInit & { token?: string } = {}): RequestInit & { token?: string } {
  const headers = new Headers(init.headers);
  headers.set("cookie", stateCookieOf(start));
  return { ...init, headers };
}
