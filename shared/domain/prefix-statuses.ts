// A prefix's statuses (docs/ipam.md); a container counts only its child prefixes as used.
export const PREFIX_STATUSES = ["container", "active", "reserved", "deprecated"] as const;
export type PrefixStatus = (typeof PREFIX_STATUSES)[number];
