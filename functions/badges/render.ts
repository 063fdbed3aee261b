// SVG badges drawn by badge-maker, shields.io's own renderer (docs/adr/0455): Verdana 11px character
// widths (anafanafo) size each half to its text, every text is XML-escaped, and the SVG carries
// role="img", aria-label and <title>. Web-standard JavaScript only, so it runs on Node and workerd.
import { makeBadge } from "badge-maker";
import type { BadgeValue } from "../../shared/domain/badges/badge-values.ts";

export type BadgeStyle = "flat" | "flat-square";

/** shields' label colour. */
export const LABEL_COLOR = "#555";

export interface BadgeSpec extends BadgeValue {
  label: string;
  style: BadgeStyle;
}

export function renderBadge(b: BadgeSpec): string {
  return makeBadge({ label: b.label, message: b.message, color: b.color, labelColor: LABEL_COLOR, style: b.style });
}

/** The badge's width in pixels, as its root element states it. */
export function badgeWidth(svg: string): number {
  return Number(/^<svg[^>]* width="(\d+(?:\.\d+)?)"/.exec(svg)?.[1] ?? Number.NaN);
}
