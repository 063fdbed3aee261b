// A product started as the README says with its administrator created, an API client with the
// administrator's bearer token, and a browser page signed in as them: the start of most browser tests.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { jsonBody, killAll, type Product, SETUP_TOKEN, startProduct, tempDataDir } from "../helpers.ts";
import { launch, seen } from "./browser.ts";

export interface SignedIn {
  product: Product;
  browser: Browser;
  page: Page;
  /** An API call as the administrator; throws on a status of 300 or more. */
  api(method: string, path: string, body?: unknown): Promise<Record<string, unknown>>;
}

export async function signedIn(
  host: string,
  dataDir: string,
  admin: { email: string; password: string },
  env: Record<string, string> = {},
): Promise<SignedIn> {
  const product = await startProduct({ HOST: host, DATA_DIR: dataDir, SVC_SETUP_TOKEN: SETUP_TOKEN, ...env }, 240_000);
  const init = await product.fetch("/api/v1/bootstrap/initialize", jsonBody({ ...admin, setup_token: SETUP_TOKEN }));
  if (init.status !== 200) throw new Error(`bootstrap answered ${init.status}: ${await init.text()}`);
  const bearer = ((await init.json()) as { token: string }).token;
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await product.fetch(`/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${await res.text()}`);
    return (res.status === 204 ? {} : await res.json()) as Record<string, unknown>;
  };
  const browser = await launch();
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(product.url);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await seen(page.getByRole("heading", { name: "Monitoring overview" }));
  return { product, browser, page, api };
}

/**
 * The set-up most browser suites share: a product on `host` with a data directory of its own, signed in
 * as `admin` before the suite's tests, its browser closed, product stopped and directory removed after
 * them. Answers the session: its properties can be read from the tests on (they run after beforeAll).
 */
export function signedInSuite(host: string, admin: { email: string; password: string }, env: Record<string, string> = {}): SignedIn {
  const data = tempDataDir();
  let session: SignedIn | undefined;
  beforeAll(async () => {
    session = await signedIn(host, data.dir, admin, env);
  }, 300_000);
  afterAll(async () => {
    await session?.browser.close();
    await killAll();
    data.remove();
  });
  return new Proxy({} as SignedIn, {
    get(_, key) {
      if (!session) throw new Error("signedInSuite: the session is read before the suite's beforeAll ran");
      return session[key as keyof SignedIn];
    },
  });
}
