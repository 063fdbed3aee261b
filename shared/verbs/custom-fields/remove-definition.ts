// DELETE /custom-fields/{id}: the definition goes, and its values with it from every object of its kinds.
// While any object holds a value the delete is high-impact: without the confirmation headers it is a 428
// (functions/confirmation.ts runs it confirmed); a field no object uses goes without them.
import { eq } from "drizzle-orm";
import { customFieldDefinitions } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { requiredHeaders } from "../confirm/confirm.ts";
import type { ObjectType } from "../inventory/object-kinds.ts";
import { auditRow, checkVersion, emitAll, loadRow } from "../resources/update-row.ts";
import { defineVerb } from "../verb.ts";
import { customFieldDef } from "./def.ts";
import { countValues, stripValues } from "./strip-values.ts";

/** The action the confirmation header names. */
export const REMOVE_CUSTOM_FIELD = { action: "delete-custom-field" } as const;

export interface RemoveCustomFieldInput {
  id: number;
  ifMatch?: number | undefined;
  /** The request carried the confirmation headers (checked by the route). */
  confirmed: boolean;
}

export const removeCustomField = defineVerb(
  { scope: `delete:${customFieldDef.scopeResource}` },
  async (s, { id, ifMatch, confirmed }: RemoveCustomFieldInput): Promise<{ values_removed: number }> => {
    const row = await loadRow(s.tx, customFieldDef, id, true);
    checkVersion(customFieldDef, id, row, ifMatch);
    const kinds = row.kinds as ObjectType[];
    if (!confirmed) {
      const holding = await countValues(s, row.name, kinds);
      if (holding > 0)
        throw new ApiError(
          "CONFIRMATION_REQUIRED",
          `${holding} object(s) hold a value of custom field "${row.name}"; deleting it removes them: confirm with ${requiredHeaders(REMOVE_CUSTOM_FIELD).join(", ")}.`,
          {
            required: requiredHeaders(REMOVE_CUSTOM_FIELD),
            invalid: requiredHeaders(REMOVE_CUSTOM_FIELD),
            action: REMOVE_CUSTOM_FIELD.action,
          },
        );
    }
    const removed = await stripValues(s, row.name, kinds, s.now);
    await s.tx.delete(customFieldDefinitions).where(eq(customFieldDefinitions.id, id));
    auditRow(s, customFieldDef, "delete", id, { before: { name: row.name, kinds: row.kinds, type: row.type }, values_removed: removed });
    emitAll(s, customFieldDef, "delete", id);
    return { values_removed: removed };
  },
);
