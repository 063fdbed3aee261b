// Markdown of status page incident updates -> HTML safe to put on a public page (docs/adr/0456).
// Two layers: markdown-it with raw HTML off (HTML in the source is shown as text) and its link check,
// then sanitize-html with an allowlist, so a parser bug or a future option cannot let markup through:
// no script, no event handler, no style, no image (the page's CSP loads none), links only to http(s)
// and mailto with rel="noopener nofollow". Both run on Node and in workerd (tests/edge).
import MarkdownIt from "markdown-it";
import sanitizeHtml from "sanitize-html";

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

const LINK_REL = "noopener nofollow";

const POLICY: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "strong", "em", "del", "s", "code", "pre", "blockquote", "ul", "ol", "li", "a", "hr", "h3", "h4", "h5", "h6"],
  allowedAttributes: { a: ["href", "rel"], ol: ["start"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  // A page has its own h1/h2: an update's headings start one level below.
  transformTags: {
    h1: "h3",
    h2: "h4",
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: LINK_REL } }),
  },
  parseStyleAttributes: false,
};

/** Sanitised HTML of an update's Markdown body. */
export function renderIncidentMarkdown(markdown: string): string {
  return sanitizeHtml(md.render(markdown), POLICY).trim();
}
