// `--jq PATH`: the jq subset the CLI's field selection takes (docs/cli.md): `.` (the value), `.field`,
// `.field.sub`, `.["odd key"]`, `[n]` (an element), `[]` (every element), joined; several paths
// separated by commas give several values per object. Each result prints as a bare string or as JSON.
import { usageError } from "./exit.ts";

type Step = { field: string } | { index: number } | { each: true };

export function parsePath(expr: string): Step[][] {
  return expr.split(",").map((one) => {
    const text = one.trim();
    if (!text.startsWith(".")) throw usageError(`--jq: "${text}" must start with "." (e.g. .name or .items[].id)`);
    const steps: Step[] = [];
    const re = /\.([A-Za-z_][\w-]*)|\["((?:[^"\\]|\\.)*)"\]|\.?\[(\d+)\]|\.?\[\]|\./y;
    let pos = 0;
    while (pos < text.length) {
      re.lastIndex = pos;
      const m = re.exec(text);
      if (!m || m[0] === "") throw usageError(`--jq: cannot read "${text}" at position ${pos + 1}`);
      if (m[1] !== undefined) steps.push({ field: m[1] });
      else if (m[2] !== undefined) steps.push({ field: JSON.parse(`"${m[2]}"`) as string });
      else if (m[3] !== undefined) steps.push({ index: Number(m[3]) });
      else if (m[0].endsWith("[]")) steps.push({ each: true });
      pos = re.lastIndex;
    }
    return steps;
  });
}

export function select(value: unknown, paths: Step[][]): unknown[] {
  const out: unknown[] = [];
  for (const steps of paths) {
    let current: unknown[] = [value];
    for (const step of steps) {
      const next: unknown[] = [];
      for (const v of current) {
        if ("field" in step) next.push(v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>)[step.field] : null);
        else if ("index" in step) next.push(Array.isArray(v) ? v[step.index] : null);
        else if (Array.isArray(v)) next.push(...v);
        else if (v && typeof v === "object") next.push(...Object.values(v));
      }
      current = next;
    }
    out.push(...current.map((v) => (v === undefined ? null : v)));
  }
  return out;
}

export function formatSelected(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}
