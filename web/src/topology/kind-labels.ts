// The translated name of each node kind the topology draws (the API's value with a space for the
// underscore is today's English): `t(KIND_LABELS[n.type])`.
import { i18nKey } from "../i18n/i18n.ts";
import type { NodeKind } from "./graph-data.ts";

export const KIND_LABELS: Record<NodeKind, string> = {
  hardware: i18nKey("topology:kind.hardware"),
  compute_unit: i18nKey("topology:kind.compute_unit"),
  service: i18nKey("topology:kind.service"),
  storage: i18nKey("topology:kind.storage"),
  network: i18nKey("topology:kind.network"),
  misc: i18nKey("topology:kind.misc"),
  external_node: i18nKey("topology:kind.external_node"),
  cluster: i18nKey("topology:kind.cluster"),
};

/** An asset kind of the blast radius, which may be one the map does not know: shown as it comes. */
export const kindLabel = (t: (key: string) => string, kind: string): string =>
  kind in KIND_LABELS ? t(KIND_LABELS[kind as NodeKind]) : kind.replace("_", " ");
