// The typed API client: openapi-fetch over the types generated from the app's own OpenAPI document
// (schema.d.ts, by scripts/web-api-types.ts). Cookie session; every write repeats the readable svc_csrf
// cookie in X-CSRF-Token (spec 5.3). A 401 outside sign-in tells the app that the session has ended.
import createClient, { type Middleware } from "openapi-fetch";
import { ApiProblem, type ErrorBody } from "./problem.ts";
import type { paths } from "./schema";

export type { paths };

const unauthorizedListeners = new Set<() => void>();
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export function cookie(name: string): string | undefined {
  for (const part of document.cookie.split(";")) {
    const [k, ...rest] = part.trim().split("=");
    if (k === name) return decodeURIComponent(rest.join("="));
  }
  return undefined;
}

const csrf: Middleware = {
  onRequest({ request }) {
    if (request.method === "GET" || request.method === "HEAD") return undefined;
    const token = cookie("svc_csrf");
    if (token) request.headers.set("X-CSRF-Token", token);
    return request;
  },
  onResponse({ request, response }) {
    if (response.status === 401 && !new URL(request.url).pathname.startsWith("/api/v1/auth/")) {
      for (const l of unauthorizedListeners) l();
    }
    return undefined;
  },
};

// Typed by the JSON answers: a route that also streams NDJSON (a list, docs/adr/0503) is read as JSON here.
export const api = createClient<paths, "application/json">({ baseUrl: location.origin, credentials: "same-origin" });
api.use(csrf);

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a successful answer, or an ApiProblem carrying the envelope. */
export async function ok<T>(call: Promise<FetchResult<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new ApiProblem(response.status, error as ErrorBody | undefined, response.headers.get("Retry-After"));
  return data as T;
}

/** A few generic screens (lists, forms) address paths chosen at run time; their definitions are typed instead. */
export const anyApi = api as unknown as {
  GET(path: string, init?: { params?: { path?: Record<string, unknown>; query?: Record<string, unknown> } }): Promise<FetchResult<unknown>>;
  POST(
    path: string,
    init?: { params?: { path?: Record<string, unknown> }; body?: unknown; headers?: Record<string, string> },
  ): Promise<FetchResult<unknown>>;
  PATCH(
    path: string,
    init?: { params?: { path?: Record<string, unknown> }; body?: unknown; headers?: Record<string, string> },
  ): Promise<FetchResult<unknown>>;
  DELETE(
    path: string,
    init?: { params?: { path?: Record<string, unknown> }; headers?: Record<string, string> },
  ): Promise<FetchResult<unknown>>;
};
