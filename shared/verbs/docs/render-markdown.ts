// Markdown -> HTML for documents (CommonMark + GFM tables, task lists, strikethrough, autolinks).
// micromark's defaults are the sanitiser: raw HTML in the source is escaped, never passed through, and
// link/image URLs with a dangerous protocol (javascript:, data:, vbscript:...) are emptied. Never turn on
// allowDangerousHtml or allowDangerousProtocol here.
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";

export function renderMarkdown(markdown: string): string {
  return micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
}
