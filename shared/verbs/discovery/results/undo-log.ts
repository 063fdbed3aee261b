// What a merge changed, kept in its audit entry (diff.undo) so POST /discovery/merges/{audit_id}/undo can
// reverse it: the rows it created (with the version they had, so a row edited since is noticed), the
// previous values of the rows it updated, the links it added, and each consumed result's previous review.
export const MERGE_ENTITY = "discovery_merge";
export const UNDO_ENTITY = "discovery_merge_undo";

export type VersionedTable = "hardware" | "compute_units" | "networks" | "hardware_clusters" | "services";

export interface CreatedRow {
  table: VersionedTable;
  id: number;
  version: number;
}

export interface UpdatedRow {
  table: VersionedTable;
  id: number;
  /** The version the merge left; undo refuses when the row moved on. */
  version: number;
  /** The changed columns' values before the merge. */
  before: Record<string, unknown>;
}

export interface AddedLink {
  table: "network_hardware_members";
  network_id: number;
  hardware_id: number;
}

export interface AddedPlacement {
  map_id: number;
  entity_type: string;
  entity_id: number;
}

export interface ResultBefore {
  id: number;
  /** What the merge set, checked again by undo. */
  merge_status_after: string;
  merge_status: string;
  reviewed_by: string | null;
  reviewed_at: string | null;
  matched_entity_type: string | null;
  matched_entity_id: number | null;
  state: string;
}

export interface UndoLog {
  created: CreatedRow[];
  updated: UpdatedRow[];
  links: AddedLink[];
  /** Map placements the merge made (import-as-network with a map). */
  placements?: AddedPlacement[];
  results: ResultBefore[];
}

export const emptyUndo = (): UndoLog => ({ created: [], updated: [], links: [], results: [] });
