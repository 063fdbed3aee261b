import { describe, expect, it } from "vitest";
import { gzipSync } from "node:zlib";
import { NvdFormatError, nvdItems, type NvdHeader } from "../../../shared/verbs/cve/nvd-stream.ts";

const doc = (items: unknown[], extra = "") =>
  `{"resultsPerPage":${items.length},"startIndex":0,"totalResults":${items.length},"format":"NVD_CVE","version":"2.0","timestamp":"2026-11-01T00:00:00.000"${extra},"vulnerabilities":${JSON.stringify(items.map((cve) => ({ cve })))}}`;

/** A stream cutting the bytes into pieces of `size` (so strings, escapes and UTF-8 sequences split across chunks). */
function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(c) {
      if (i >= bytes.length) return c.close();
      c.enqueue(bytes.slice(i, i + size));
      i += size;
    },
  });
}

async function collect(text: string | Uint8Array, size = 7) {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  const header: NvdHeader = {};
  const out = [];
  for await (const cve of nvdItems(chunked(bytes, size), header)) out.push(cve);
  return { out, header };
}

const items = [
  { id: "CVE-2024-6387", lastModified: "2024-07-01", descriptions: [{ lang: "en", value: 'A "quoted" } ] { [ brace\\ and ünïcödé 🙂' }] },
  {
    id: "CVE-2021-44228",
    lastModified: "2021-12-10",
    configurations: [{ nodes: [{ operator: "OR", cpeMatch: [{ criteria: "cpe:2.3:a:apache:log4j:*:*:*:*:*:*:*:*" }] }] }],
  },
];

describe("streaming the vulnerabilities of an NVD 2.0 document", () => {
  it("yields each cve whatever the chunk boundaries, and reads the header", async () => {
    for (const size of [1, 3, 7, 64, 100_000]) {
      const { out, header } = await collect(doc(items), size);
      expect(out).toEqual(items);
      expect(header).toMatchObject({ format: "NVD_CVE", version: "2.0", totalResults: 2 });
    }
  });

  it("reads a gzip file the same", async () => {
    const { out } = await collect(gzipSync(doc(items)), 50);
    expect(out.map((c) => c.id)).toEqual(["CVE-2024-6387", "CVE-2021-44228"]);
  });

  it("accepts keys after the array and an empty array", async () => {
    expect((await collect(doc([]))).out).toEqual([]);
    const after = `${doc(items).slice(0, -1)},"trailer":{"x":[1,2]}}`;
    expect((await collect(after, 5)).out).toHaveLength(2);
  });

  it("refuses documents that are not NVD CVE 2.0, truncated or malformed", async () => {
    await expect(collect(`{"format":"NVD_CPE","version":"2.0","vulnerabilities":[]}`)).rejects.toThrow(/NVD_CVE/);
    await expect(collect(`{"format":"NVD_CVE","version":"1.1","vulnerabilities":[]}`)).rejects.toThrow(/version 1.1/);
    await expect(collect(doc(items).slice(0, 200))).rejects.toThrow(/ends early/);
    await expect(collect(`{"format":"NVD_CVE","version":"2.0","vulnerabilities":[{"cve":{"id":1,}}]}`)).rejects.toThrow(/not valid JSON/);
    await expect(collect(`{"format":"NVD_CVE","version":"2.0","vulnerabilities":[{"nocve":{}}]}`)).rejects.toThrow(NvdFormatError);
    await expect(collect(`{"format":"NVD_CVE","version":"2.0","other":[]}`)).rejects.toThrow(/No vulnerabilities/);
    await expect(collect(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))).rejects.toThrow(/UTF-8/);
  });
});
