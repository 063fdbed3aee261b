// Streams the `vulnerabilities` items out of an NVD CVE API 2.0 document (a page of the API, or a whole
// feed file, gzip or not) without holding the document: a full feed is gigabytes, each item a few KB.
// A small scanner tracks strings and nesting, cuts each array element out as text and parses it alone,
// so memory stays at one chunk plus one item. The document must say `"format":"NVD_CVE"` and version 2.0
// before its `vulnerabilities` key, as every NVD answer and feed file does. Web streams only (Node and
// workerd): gzip through DecompressionStream, text through TextDecoder.
import type { NvdCve } from "../../domain/cve/nvd.ts";

/** A single item larger than this is refused (the largest NVD records are well under 2 MB). */
export const MAX_ITEM_CHARS = 32 * 1024 * 1024;

export class NvdFormatError extends Error {
  override name = "NvdFormatError";
}

export interface NvdHeader {
  format?: string;
  version?: string;
  totalResults?: number;
  timestamp?: string;
}

const QUOTE = 34,
  BACKSLASH = 92,
  LBRACE = 123,
  RBRACE = 125,
  LBRACKET = 91,
  RBRACKET = 93,
  COLON = 58;

/** One read of the feed; DecompressionStream fails with a bare TypeError (often no message) on a cut or corrupt gzip stream. */
async function readFeed(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<ReadableStreamReadResult<Uint8Array>> {
  try {
    return await reader.read();
  } catch (e) {
    if (e instanceof TypeError)
      throw new NvdFormatError(`The gzip data ends early or is corrupt (truncated feed)${e.message ? `: ${e.message}` : ""}.`);
    throw e;
  }
}

/** Decompresses when the first bytes are gzip's magic (1f 8b), else passes the bytes through. */
export async function maybeGunzip(stream: ReadableStream<Uint8Array>): Promise<ReadableStream<Uint8Array>> {
  const reader = stream.getReader();
  const first = await reader.read();
  const head = first.value ?? new Uint8Array();
  const rest = new ReadableStream<Uint8Array>({
    start(controller) {
      if (head.length) controller.enqueue(head);
      if (first.done) controller.close();
    },
    async pull(controller) {
      const chunk = await readFeed(reader);
      const { done, value } = chunk;
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b)
    return rest.pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>);
  return rest;
}

/**
 * Yields each `vulnerabilities[i].cve`; `header` is filled with the document's metadata (format,
 * version, totalResults, timestamp) once the items begin. Throws NvdFormatError for anything else.
 */
export async function* nvdItems(stream: ReadableStream<Uint8Array>, header: NvdHeader = {}, signal?: AbortSignal): AsyncGenerator<NvdCve> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const reader = (await maybeGunzip(stream)).getReader();
  let depth = 0;
  let inString = false;
  let escaped = false;
  let stringStart = -1;
  let lastString = "";
  let key = "";
  let inArray = false;
  let arrayDone = false;
  let headerText = "";
  let item: string[] = [];
  let itemLen = 0;
  let itemStart = -1;
  let seen = 0;
  let pendingString = "";
  let headerFrom = 0;
  try {
    for (;;) {
      signal?.throwIfAborted();
      const chunk = await readFeed(reader);
      const { done, value } = chunk;
      let text: string;
      try {
        text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      } catch {
        throw new NvdFormatError("The feed is not valid UTF-8 text.");
      }
      const out: NvdCve[] = [];
      for (let i = 0; i < text.length; i++) {
        const ch = text.charCodeAt(i);
        if (inString) {
          if (escaped) escaped = false;
          else if (ch === BACKSLASH) escaped = true;
          else if (ch === QUOTE) {
            inString = false;
            if (depth === 1 && !inArray) lastString = pendingString + text.slice(stringStart, i);
            pendingString = "";
          }
          continue;
        }
        if (ch === QUOTE) {
          inString = true;
          stringStart = i + 1;
          continue;
        }
        if (inArray) {
          if (ch === LBRACE || ch === LBRACKET) {
            if (depth === 2) {
              if (ch !== LBRACE) throw new NvdFormatError("vulnerabilities must be an array of objects.");
              itemStart = i;
            }
            depth++;
          } else if (ch === RBRACE || ch === RBRACKET) {
            depth--;
            if (depth === 2 && itemStart >= 0) {
              item.push(text.slice(itemStart, i + 1));
              const whole = item.join("");
              item = [];
              itemLen = 0;
              itemStart = -1;
              out.push(parseItem(whole, seen++));
            } else if (depth === 1) {
              inArray = false;
              arrayDone = true;
              headerText += "[]";
              headerFrom = i + 1;
            }
          }
          continue;
        }
        if (ch === LBRACE || ch === LBRACKET) {
          if (depth === 1 && ch === LBRACKET && key === "vulnerabilities" && !arrayDone) {
            headerText += text.slice(headerFrom, i);
            checkHeader(headerText);
            inArray = true;
            depth++;
            continue;
          }
          depth++;
        } else if (ch === RBRACE || ch === RBRACKET) depth--;
        else if (ch === COLON && depth === 1) key = lastString;
      }
      // Carry what spans the chunk boundary: the open item, the open key string, the header's text.
      if (inArray && itemStart >= 0) {
        item.push(text.slice(itemStart));
        itemLen += text.length - itemStart;
        itemStart = 0;
        if (itemLen > MAX_ITEM_CHARS) throw new NvdFormatError(`A vulnerabilities item is larger than ${MAX_ITEM_CHARS} characters.`);
      } else if (!inArray) {
        headerText += text.slice(headerFrom);
        if (headerText.length > 1_000_000)
          throw new NvdFormatError("No vulnerabilities array in the first megabyte: not an NVD CVE API 2.0 document.");
      }
      if (inString && depth === 1 && !inArray) pendingString += text.slice(stringStart);
      stringStart = 0;
      headerFrom = 0;
      for (const cve of out) yield cve;
      if (done) break;
    }
    if (depth !== 0 || inString) throw new NvdFormatError("The document ends early (truncated feed).");
    if (!arrayDone) throw new NvdFormatError("No vulnerabilities array: not an NVD CVE API 2.0 document.");
    Object.assign(header, readHeader(headerText));
  } finally {
    reader.releaseLock();
  }
}

function parseItem(text: string, index: number): NvdCve {
  let parsed: { cve?: NvdCve };
  try {
    parsed = JSON.parse(text) as { cve?: NvdCve };
  } catch (e) {
    throw new NvdFormatError(`vulnerabilities[${index}] is not valid JSON: ${(e as Error).message}`);
  }
  if (!parsed?.cve || typeof parsed.cve !== "object") throw new NvdFormatError(`vulnerabilities[${index}] has no cve object.`);
  return parsed.cve;
}

function checkHeader(text: string): void {
  if (!/"format"\s*:\s*"NVD_CVE"/.test(text))
    throw new NvdFormatError('Not an NVD CVE document: "format":"NVD_CVE" must come before the vulnerabilities.');
  const version = /"version"\s*:\s*"([^"]*)"/.exec(text)?.[1];
  if (version !== "2.0")
    throw new NvdFormatError(`Only the NVD CVE API 2.0 format is read; this document says version ${version ?? "(none)"}.`);
}

function readHeader(text: string): NvdHeader {
  try {
    const h = JSON.parse(text) as NvdHeader;
    return { format: h.format, version: h.version, totalResults: h.totalResults, timestamp: h.timestamp };
  } catch {
    throw new NvdFormatError("The document around the vulnerabilities array is not valid JSON.");
  }
}
