// The console's source as the catalogue test (web-i18n.test.ts) reads it, with the TypeScript compiler
// API: visible English text left in JSX, and the keys that t()/i18nKey() name.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

export const ROOT = join(import.meta.dirname, "../..");
export const WEB_SRC = join(ROOT, "web/src");
export const LOCALES_DIR = join(WEB_SRC, "locales");

/** Attributes whose text a user sees or hears. */
const VISIBLE_ATTRIBUTES = new Set([
  "title",
  "placeholder",
  "aria-label",
  "aria-description",
  "aria-placeholder",
  "aria-roledescription",
  "aria-valuetext",
  "alt",
  "label",
  "empty",
  // The console's own components' props that end up on screen.
  "hint",
  "caption",
  "button",
  "emptyChoice",
  // A table cell's column name, shown before the value on a narrow screen (styles.css, attr(data-label)).
  "data-label",
]);
const LETTERS = /\p{L}/u;
/** The explicit escape for text that is not prose (a product name, an example command): docs/web-ui.md. */
const IGNORE = "i18n-ignore";

export interface Literal {
  file: string;
  line: number;
  text: string;
}

export function sourceFiles(ext: RegExp, dir = WEB_SRC): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && ext.test(e.name) && !e.name.endsWith(".d.ts"))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .filter((f) => !f.startsWith("web/src/api/"))
    .sort();
}

function parse(file: string, text = readFileSync(join(ROOT, file), "utf8")): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

/** String literals a JSX expression shows as they are: "x", `x`, c ? "x" : "y", c && "x", a ?? "x". */
function shownStrings(e: ts.Expression): ts.Node[] {
  if (ts.isParenthesizedExpression(e)) return shownStrings(e.expression);
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return [e];
  if (ts.isTemplateExpression(e)) return [e.head, ...e.templateSpans.map((s) => s.literal)];
  if (ts.isConditionalExpression(e)) return [...shownStrings(e.whenTrue), ...shownStrings(e.whenFalse)];
  if (
    ts.isBinaryExpression(e) &&
    [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(e.operatorToken.kind)
  )
    return [...shownStrings(e.left), ...shownStrings(e.right)];
  return [];
}

/**
 * English a user would see in a .tsx file: JSX text, and string literals in JSX children and visible
 * attributes. `text` instead of the file's own (the test of this scanner).
 */
export function visibleLiterals(file: string, text?: string): Literal[] {
  const sf = parse(file, text);
  const lines = sf.text.split("\n");
  const found: Literal[] = [];
  const add = (node: ts.Node, raw: string) => {
    const text = raw.replace(/\s+/g, " ").trim();
    if (!LETTERS.test(text)) return;
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
    // The marker on the literal's line or the line above exempts it.
    if (lines[line]?.includes(IGNORE) || lines[line - 1]?.includes(IGNORE)) return;
    found.push({ file, line: line + 1, text });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node)) add(node, node.text);
    else if (ts.isJsxExpression(node) && node.expression && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent)))
      for (const s of shownStrings(node.expression)) add(s, (s as ts.LiteralLikeNode).text);
    else if (ts.isJsxAttribute(node) && VISIBLE_ATTRIBUTES.has(node.name.getText(sf)) && node.initializer) {
      const init = node.initializer;
      if (ts.isStringLiteral(init)) add(init, init.text);
      else if (ts.isJsxExpression(init) && init.expression)
        for (const s of shownStrings(init.expression)) add(s, (s as ts.LiteralLikeNode).text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

export interface KeyUse {
  file: string;
  line: number;
  key: string;
}

/** Every literal key given to t("ns:key") or i18nKey("ns:key"), in .ts and .tsx files alike. */
export function usedKeys(file: string): KeyUse[] {
  const sf = parse(file);
  const uses: KeyUse[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : "";
      const arg = node.arguments[0];
      if ((name === "t" || name === "i18nKey") && arg && (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)))
        uses.push({ file, line: sf.getLineAndCharacterOfPosition(arg.getStart(sf)).line + 1, key: arg.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return uses;
}

/** web/src/locales/<lang>/<ns>.json as {"ns:key": text}. */
export function catalogue(lang: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of readdirSync(join(LOCALES_DIR, lang)).filter((n) => n.endsWith(".json"))) {
    const ns = f.slice(0, -".json".length);
    const entries = JSON.parse(readFileSync(join(LOCALES_DIR, lang, f), "utf8")) as Record<string, unknown>;
    for (const [k, v] of Object.entries(entries)) out.set(`${ns}:${k}`, typeof v === "string" ? v : JSON.stringify(v));
  }
  return out;
}

export const variables = (text: string): string[] =>
  [...new Set([...text.matchAll(/\{\{\s*([\w.]+)\s*(?:,[^}]*)?\}\}/g)].map((m) => m[1]!))].sort();

const PLURAL = /_(zero|one|two|few|many|other)$/;
/** "ns:items_one" -> "ns:items"; a plain key is its own base. */
export const baseKey = (key: string): string => key.replace(PLURAL, "");
export const isPluralForm = (key: string): boolean => PLURAL.test(key);
