// A small server-sent events reader for the tests: fetch, then the text/event-stream parsed into records
// as the EventSource specification reads them (field lines, blank line ends a record, ":" a comment).
export interface SseRecord {
  id?: string;
  event?: string;
  data?: string;
  /** A comment line's text (heartbeats). */
  comment?: string;
}

export interface SseStream {
  status: number;
  headers: Headers;
  records: SseRecord[];
  /** Resolves when the server ends the response (or the request is aborted). */
  ended: Promise<void>;
  /** The next record matching `pred` not yet taken (records already received count). */
  next(pred: (r: SseRecord) => boolean, timeoutMs?: number): Promise<SseRecord>;
  close(): void;
}

export const isEvent = (name: string) => (r: SseRecord) => r.event === name;

function parseRecord(block: string): SseRecord[] {
  const record: SseRecord = {};
  const out: SseRecord[] = [];
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) {
      out.push({ comment: line.slice(1).trim() });
      continue;
    }
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "data") data.push(value);
    else if (field === "id" || field === "event") record[field] = value;
  }
  if (data.length > 0) record.data = data.join("\n");
  if (record.id !== undefined || record.event !== undefined || record.data !== undefined) out.push(record);
  return out;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  const records: SseRecord[] = [];
  const waiters: (() => void)[] = [];
  let taken = 0;
  let done = false;
  const ended = (async () => {
    if (!res.body || !res.headers.get("content-type")?.startsWith("text/event-stream")) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += value;
        let cut: number;
        while ((cut = text.indexOf("\n\n")) !== -1) {
          records.push(...parseRecord(text.slice(0, cut)));
          text = text.slice(cut + 2);
        }
        for (const w of waiters.splice(0)) w();
      }
    } catch {
      // aborted by close()
    }
  })().finally(() => {
    done = true;
    for (const w of waiters.splice(0)) w();
  });
  const next = (pred: (r: SseRecord) => boolean, timeoutMs = 5000) =>
    new Promise<SseRecord>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching record within ${timeoutMs} ms; got ${JSON.stringify(records)}`)),
        timeoutMs,
      );
      const look = () => {
        for (; taken < records.length; taken++)
          if (pred(records[taken]!)) {
            clearTimeout(timer);
            return resolve(records[taken++]!);
          }
        if (done) {
          clearTimeout(timer);
          return reject(new Error(`stream ended; got ${JSON.stringify(records)}`));
        }
        waiters.push(look);
      };
      look();
    });
  return { status: res.status, headers: res.headers, records, ended, next, close: () => abort.abort() };
}
