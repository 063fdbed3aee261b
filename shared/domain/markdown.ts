// Markdown an operator writes -> HTML safe to put on a page: status page incident updates (public,
// docs/adr/0456) and inventory journal entries (docs/adr/0485) share this one policy.
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
  // A page has its own h1/h2: a text's headings start one level below.
  transformTags: {
    h1: "h3",
    h2: "h4",
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: LINK_REL } }),
  },
  parseStyleAttributes: false,
};

/** Sanitised HTML of a Markdown text (an incident update's body, a journal entry's comments). */
export function renderSafeMarkdown(markdown: string): string {
  return sanitizeHtml(md.render(markdown), POLICY).trim();
}
