// The public status page's one script (docs/adr/0459): served at LIVE_SCRIPT_PATH, allowed by the page's
// CSP by its SHA-256 (the <script> carries the same hash as `integrity`). It listens to the page's
// event stream and, on each `change`, fetches the page again and swaps the parts that differ (DOMParser),
// keeping the reader's scroll position; without JavaScript, or without EventSource, the page is the same
// page, only not live. When the stream is refused (a full or draining instance) it tries again later,
// reading the page on reconnecting since events may have been missed.
import { bytesToBase64, utf8Bytes } from "../../shared/auth/encoding.ts";

export const LIVE_SCRIPT_PATH = "/status/assets/live.js";

export const LIVE_SCRIPT = `(function () {
  "use strict";
  var main = document.querySelector("main[data-events]");
  if (!main || !window.EventSource || !window.DOMParser || !window.fetch) return;
  var events = main.getAttribute("data-events");
  var busy = false, again = false, delay = 5000, connected = false;
  function swap(doc) {
    var next = doc.querySelector("main"), cur = document.querySelector("main");
    if (!next || !cur) return;
    var a = cur.children, b = next.children, i;
    if (a.length !== b.length) {
      while (cur.firstChild) cur.removeChild(cur.firstChild);
      while (next.firstChild) cur.appendChild(document.adoptNode(next.firstChild));
    } else {
      for (i = b.length - 1; i >= 0; i--) if (!b[i].isEqualNode(a[i])) cur.replaceChild(document.adoptNode(b[i]), a[i]);
    }
    document.title = doc.title;
    document.documentElement.setAttribute("data-updated", String(Date.now()));
  }
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(location.pathname + location.search, { cache: "no-cache", headers: { accept: "text/html" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { if (html) swap(new DOMParser().parseFromString(html, "text/html")); })
      .catch(function () {})
      .then(function () { busy = false; if (again) { again = false; refresh(); } });
  }
  function connect() {
    var source = new EventSource(events);
    source.addEventListener("ready", function () {
      if (connected) refresh();
      connected = true;
      delay = 5000;
    });
    source.addEventListener("change", refresh);
    source.onerror = function () {
      if (source.readyState !== EventSource.CLOSED) return;
      setTimeout(connect, delay + Math.random() * delay);
      delay = Math.min(delay * 2, 300000);
    };
  }
  connect();
})();
`;

let hash: Promise<string> | undefined;

/** `sha256-<base64>` of the script: its `integrity` and its CSP source. */
export function liveScriptHash(): Promise<string> {
  hash ??= crypto.subtle.digest("SHA-256", utf8Bytes(LIVE_SCRIPT)).then((d) => `sha256-${bytesToBase64(new Uint8Array(d))}`);
  return hash;
}
