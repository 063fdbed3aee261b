// One entry of a lab file as POST /config/apply takes it, and a field's change as the diff answers it:
// shared by the inventory's part of the apply (apply-config.ts) and the API kinds' (apply-api-kinds.ts).
type Row = Record<string, unknown>;

export interface ConfigEntry {
  kind: string;
  key: string;
  fields: Row;
}

export interface FieldChange {
  from: unknown;
  to: unknown;
}
