// GET /auth/oauth/providers (public): what the sign-in page offers.
import { defineRead } from "../verb.ts";
import { publicProviders } from "./provider.ts";

export const listPublicProviders = defineRead<undefined, Awaited<ReturnType<typeof publicProviders>>>({ scope: "public" }, async (ctx) =>
  publicProviders(ctx.db),
);
