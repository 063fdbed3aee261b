// GET|PUT|DELETE /cve/identity/{entity_type}/{entity_id} (ours): the operator's identity of an asset,
// which wins over the one derived from the inventory. PUT normalises vendor and product the way CPE
// names are written and bumps the revision each assessment reports; DELETE falls back to the derived one.
import { and, eq, sql } from "drizzle-orm";
import { assetIdentities } from "../../db/schema/index.ts";
import { normaliseName } from "../../domain/cve/cpe.ts";
import { ApiError } from "../../errors.ts";
import type { VerbContext } from "../verb-context.ts";
import { defineRead, defineVerb } from "../verb.ts";
import { type AssetIdentity, type EntityType, resolveAssets } from "./identity.ts";
import { CVE_READ_SCOPE } from "./reads.ts";

export interface IdentityView {
  entity_type: EntityType;
  entity_id: number;
  name: string;
  /** What assessments use: the operator's when set, else the inventory's, else null. */
  identity: AssetIdentity | null;
  operator_set: boolean;
}

interface Key {
  entity_type: EntityType;
  entity_id: number;
}

const label = (t: EntityType) => (t === "compute_unit" ? "Compute unit" : t === "service" ? "Service" : "Hardware");

async function view(ctx: Pick<VerbContext, "db">, { entity_type, entity_id }: Key): Promise<IdentityView> {
  const [asset] = await resolveAssets(ctx.db, entity_type, [entity_id]);
  if (!asset) throw ApiError.notFound(label(entity_type), entity_id);
  return { entity_type, entity_id, name: asset.name, identity: asset.identity, operator_set: asset.identity?.provenance === "operator" };
}

export const getIdentity = defineRead<Key, IdentityView>({ scope: CVE_READ_SCOPE }, (ctx, key) => view(ctx, key));

export interface IdentityPut extends Key {
  vendor: string;
  product: string;
  version: string | null;
}

export const putIdentity = defineVerb<IdentityPut, IdentityView>({ scope: "write:cve" }, async (s, input) => {
  const before = await view({ db: s.tx }, input);
  const values = { vendor: normaliseName(input.vendor), product: normaliseName(input.product), version: input.version?.trim() || null };
  if (!values.vendor || !values.product)
    throw ApiError.validation([{ loc: ["body", values.vendor ? "product" : "vendor"], msg: "Must not be blank.", type: "value_error" }]);
  await s.tx
    .insert(assetIdentities)
    .values({
      entity_type: input.entity_type,
      entity_id: input.entity_id,
      ...values,
      provenance: "operator",
      revision: 1,
      updated_at: s.now,
    })
    .onConflictDoUpdate({
      target: [assetIdentities.entity_type, assetIdentities.entity_id],
      set: { ...values, provenance: "operator", revision: sql`${assetIdentities.revision} + 1`, updated_at: s.now },
    });
  s.audit({
    action: "cve.identity_set",
    category: "inventory",
    entity_type: input.entity_type,
    entity_id: input.entity_id,
    diff: { before: before.operator_set ? before.identity : null, after: values },
  });
  return view({ db: s.tx }, input);
});

export const deleteIdentity = defineVerb<Key, void>({ scope: "delete:cve" }, async (s, key) => {
  await view({ db: s.tx }, key);
  const gone = await s.tx
    .delete(assetIdentities)
    .where(
      and(
        eq(assetIdentities.entity_type, key.entity_type),
        eq(assetIdentities.entity_id, key.entity_id),
        eq(assetIdentities.provenance, "operator"),
      ),
    )
    .returning();
  if (gone.length)
    s.audit({
      action: "cve.identity_removed",
      category: "inventory",
      entity_type: key.entity_type,
      entity_id: key.entity_id,
      diff: { before: { vendor: gone[0]!.vendor, product: gone[0]!.product, version: gone[0]!.version } },
    });
});
