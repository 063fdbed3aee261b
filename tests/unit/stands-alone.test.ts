// The repository stands on its own (issue 27 item 5): no tracked file cites the workspace's design notes,
// which a clone does not have; the project's own references are docs/architecture.md, the records in
// docs/adr/ and the spec catalogue in spec/. And every decision record is in the index, with its date and
// status, so a record cannot be added where nobody finds it.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Built from parts so that this file does not cite them itself. */
const CITATION = new RegExp(["DESIGN", "\\.md|reference-", "contracts"].join(""));

/**
 * Files still citing them, being restructured elsewhere when the citations were replaced; the merge
 * fixes them and empties this list. An entry that no longer cites fails, so the list only shrinks.
 */
const NOT_YET: ReadonlySet<string> = new Set([]);

function trackedFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return out.split("\0").filter((f) => f !== "" && !f.startsWith("node_modules/") && !f.includes("/node_modules/"));
}

function text(file: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(root, file));
  } catch {
    return undefined; // deleted in the working tree, not yet in the index
  }
  return bytes.subarray(0, 8000).includes(0) ? undefined : bytes.toString("utf8");
}

describe("the repository stands on its own", () => {
  const citing = trackedFiles().filter((f) => {
    const t = text(f);
    return t !== undefined && CITATION.test(t);
  });

  it("no tracked file cites the workspace's DESIGN or reference contracts", () => {
    expect(citing.filter((f) => !NOT_YET.has(f))).toEqual([]);
  });

  it("every file allowed to cite them still does (the list only shrinks)", () => {
    expect([...NOT_YET].filter((f) => !citing.includes(f))).toEqual([]);
  });
});

describe("docs/adr", () => {
  const dir = join(root, "docs/adr");
  const records = readdirSync(dir)
    .filter((f) => /^\d{4}-.+\.md$/.test(f))
    .sort();
  const index = readFileSync(join(dir, "README.md"), "utf8").split("## Index")[1] ?? "";
  const linked = [...index.matchAll(/\]\((\d{4}-[^)]+\.md)\)/g)].map((m) => m[1]);

  it("has records", () => {
    expect(records.length).toBeGreaterThan(0);
  });

  it("lists every record in the index, once, and links only records that exist", () => {
    expect(records.filter((f) => !linked.includes(f))).toEqual([]);
    expect(linked.filter((f) => !records.includes(f!))).toEqual([]);
    expect(new Set(linked).size).toBe(linked.length);
  });

  it("gives every record its number as title, a date and a status", () => {
    const bad = records.filter((f) => {
      const head = readFileSync(join(dir, f), "utf8").split("\n## ")[0]!;
      return !(
        head.startsWith(`# ${f.slice(0, 4)}. `) &&
        /^- Date: \d{4}-\d{2}-\d{2}$/m.test(head) &&
        /^- Status: (accepted|superseded by \d{4})$/m.test(head)
      );
    });
    expect(bad).toEqual([]);
  });
});
