// A name as a URL slug: lower-case, accents dropped, every run of other characters one dash, cut to a
// length. Service slugs and status page item keys (docs/adr/0461) are both made this way.

/** "My App (prod)" -> "my-app-prod"; "" when the name has no letter or digit of a-z0-9. */
export function slugText(name: string, max: number): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, max)
    .replace(/^-+|-+$/g, "");
}
