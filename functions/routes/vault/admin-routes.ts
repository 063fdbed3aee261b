// [vault] the vault's status and administration (docs/architecture.md, API contracts, spec/catalogue.tsv, group vault): all
// administrators only, like the original. The raw key is never answered.
import type { Hono } from "hono";
import { VaultStatus, VaultTestResult } from "../../../shared/schemas/vault.ts";
import { initializeVault } from "../../../shared/verbs/vault/initialize.ts";
import { rotateVault } from "../../../shared/verbs/vault/rotate.ts";
import { vaultSelfTest, vaultStatus } from "../../../shared/verbs/vault/status.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function vaultAdminRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/health/vault",
      tag: "vault",
      scope: vaultStatus.scope,
      response: { schema: VaultStatus },
      summary: "The vault: whether this process holds the installation's key, where it comes from, how many secrets it keeps",
      description:
        "`status` healthy | ephemeral (no key loaded) | degraded (the key does not open the stored secrets, or a rotation is pending: `rotation_pending`).",
    },
    async (c, { reply }) => reply(await vaultStatus({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/admin/vault/initialize",
      tag: "vault",
      scope: initializeVault.scope,
      response: { schema: VaultStatus },
      errors: [409, 503],
      summary: "Record this process's key as the installation's (409 when one is recorded or ciphertexts exist)",
      description:
        "The first secret stored does this on its own; this is the explicit form. The key itself comes from SVC_VAULT_KEY (or, all-in-one, DATA_DIR/vault.key).",
    },
    async (c, { reply }) => reply(await initializeVault({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/admin/vault/rotate",
      tag: "vault",
      scope: rotateVault.scope,
      response: { schema: VaultStatus },
      errors: [409, 503],
      summary: "Re-encrypt every stored secret under a new key, in one transaction (a key file's successor is generated)",
      description:
        "With the key the all-in-one server generated into DATA_DIR/vault.key: no body; a new key is generated, every secret re-encrypted under it in one transaction, " +
        "and the key file and this process switched to it (the new key written beside the old one first, so a crash at any point leaves a key that opens every secret). " +
        "With SVC_VAULT_KEY: set the new key in SVC_VAULT_KEY and the old one in SVC_VAULT_KEY_PREVIOUS, restart every process, then call this. " +
        "409 when no rotation is pending (SVC_VAULT_KEY), another one is in progress, or a stored secret does not open (then nothing changes); 503 when no key this process holds opens the stored secrets.",
    },
    async (c, { reply }) => {
      const { vaultKeyFile } = c.get("deps");
      return reply(await rotateVault({ ctx: verbContext(c), input: vaultKeyFile ? { keyFile: vaultKeyFile } : {} }));
    },
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/admin/vault/test",
      tag: "vault",
      scope: vaultSelfTest.scope,
      response: { schema: VaultTestResult },
      summary: "Encrypt and decrypt a probe value, and check the key against the stored secrets: always 200 {ok, message}",
    },
    async (c, { reply }) => reply(await vaultSelfTest({ ctx: verbContext(c) })),
  );
}
