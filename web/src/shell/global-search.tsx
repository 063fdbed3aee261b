// The top bar's search over the whole inventory (GET /api/v1/search): a combobox (WAI-ARIA 1.2, list
// autocomplete) whose listbox groups the matches by kind. Ctrl+K (⌘K) focuses it from anywhere, "/"
// from anywhere but a text field; Down/Up move, Enter opens the active match (or the first), Escape
// closes the list and, pressed again, empties the field. A kind with more matches than shown ends with
// an option opening its list filtered by the same text.
import type { RefObject } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { ApiProblem, messageOf } from "../api/problem.ts";
import { useLatestSearch } from "../components/use-latest-search.ts";
import { GROUPS } from "../inventory/groups.ts";
import type { GroupKey } from "../inventory/types.ts";
import { t } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { navigate } from "../router.tsx";
import { GROUP_TITLES } from "./group-titles.ts";

type Results = paths["/api/v1/search"]["get"]["responses"][200]["content"]["application/json"];
type Kind = Results["results"][number]["type"];

/** The screen of each kind the search finds. Docs have no screen in the console, so they are not asked for. */
const SCREEN: Record<Exclude<Kind, "doc">, GroupKey> = {
  hardware: "hardware",
  compute_unit: "compute",
  service: "services",
  storage: "storage",
  network: "networks",
  cluster: "clusters",
  external_node: "external",
  misc: "misc",
  ip_address: "ipam",
  site: "sites",
  vlan: "vlans",
};
const KINDS = Object.keys(SCREEN) as Array<keyof typeof SCREEN>;
/** Matches asked for per kind (the route's limit is per kind). */
const PER_KIND = 5;
const LIST_ID = "global-search-list";

interface Option {
  id: string;
  href: string;
  label: string;
  meta?: string | undefined;
}

interface Section {
  kind: string;
  title: string;
  options: Option[];
}

function sectionsOf(results: Results | undefined): Section[] {
  if (!results) return [];
  const sections: Section[] = [];
  for (const kind of KINDS) {
    const group = GROUPS[SCREEN[kind]];
    const hits = results.results.filter((r) => r.type === kind);
    if (hits.length === 0) continue;
    const options: Option[] = hits.map((h) => ({
      id: `${kind}-${h.id}`,
      href: `/inventory/${group.key}/${h.id}`,
      label: h.name,
      meta: h.subtitle ?? undefined,
    }));
    if (hits.length >= PER_KIND)
      options.push({
        id: `${kind}-more`,
        href: `/inventory/${group.key}?q=${encodeURIComponent(results.query)}`,
        label: t("shell:search.more", { group: t(GROUP_TITLES[group.key]), query: results.query }),
      });
    sections.push({ kind, title: t(GROUP_TITLES[group.key]), options });
  }
  return sections;
}

/** Where typing a "/" means the character, not the shortcut. */
function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return (
    target instanceof HTMLInputElement &&
    !["button", "checkbox", "radio", "submit", "reset", "range", "color", "file"].includes(target.type)
  );
}

/** Ctrl+K / ⌘K and "/" focus the search (the input given). */
function useShortcuts(input: RefObject<HTMLInputElement | null>): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const ctrlK = (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "k";
      const slash = e.key === "/" && !e.ctrlKey && !e.metaKey && !e.altKey && !isTextField(e.target);
      if (!ctrlK && !slash) return;
      e.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}

export function GlobalSearch() {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  useShortcuts(input);
  const query = text.trim();
  const { answer, busy } = useLatestSearch(query, (q) =>
    ok(
      api.GET("/api/v1/search", {
        params: { query: { q, limit: String(PER_KIND), types: KINDS } },
        querySerializer: { array: { style: "form", explode: false } },
      }),
    ),
  );
  // The latest answer stays shown while a newer one is on its way, so the list does not flicker.
  const sections = query === "" ? [] : sectionsOf(answer?.data);
  const options = sections.flatMap((s) => s.options);
  useEffect(() => setActive(-1), [answer]);
  const optionId = (o: Option) => `global-search-${o.id}`;
  const activeOption = active >= 0 ? options[active] : undefined;
  useEffect(() => {
    if (activeOption) document.getElementById(optionId(activeOption))?.scrollIntoView({ block: "nearest" });
  }, [activeOption]);

  const go = (o: Option) => {
    setOpen(false);
    setText("");
    input.current?.blur();
    navigate(o.href);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setOpen(true);
      setActive((i) => Math.min(i + 1, options.length - 1));
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (e.key === "Enter") {
      e.preventDefault();
      const pick = activeOption ?? options[0];
      if (pick && open) go(pick);
    } else if (e.key === "Escape") {
      e.preventDefault();
      if (open && query !== "") {
        setOpen(false);
        setActive(-1);
      } else setText("");
    }
  };

  const shown = open && query !== "";
  const error = answer?.query === query ? answer.error : undefined;
  const current = answer?.query === query && answer.data !== undefined;
  const status = !shown
    ? ""
    : error !== undefined
      ? error instanceof ApiProblem && error.status === 429
        ? t("shell:search.tooMany", { seconds: Math.max(1, error.retryAfter ?? 0) })
        : t("shell:search.failed", { reason: messageOf(error) })
      : busy || !current
        ? t("shell:search.searching")
        : options.length === 0
          ? t("shell:search.nothing", { query })
          : t("shell:search.count", { count: answer.data!.results.length });

  return (
    <div class="global-search">
      <label for="global-search" class="visually-hidden">
        {t("shell:search.label")}
      </label>
      <input
        ref={input}
        id="global-search"
        type="text"
        role="combobox"
        autoComplete="off"
        spellcheck={false}
        enterKeyHint="search"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={LIST_ID}
        aria-activedescendant={shown && activeOption ? optionId(activeOption) : undefined}
        aria-keyshortcuts="Control+K Meta+K /"
        placeholder={t("shell:search.placeholder")}
        value={text}
        onInput={(e) => {
          setText((e.currentTarget as HTMLInputElement).value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      <div class="global-search-popup" hidden={!shown}>
        <div role="listbox" id={LIST_ID} aria-label={t("shell:search.results")} aria-busy={busy} class="global-search-list">
          {shown &&
            sections.map((s) => (
              // biome-ignore lint/a11y/useSemanticElements: a listbox groups its options with role="group" (WAI-ARIA); a fieldset is for form controls
              <div key={s.kind} role="group" aria-labelledby={`global-search-kind-${s.kind}`}>
                <div role="presentation" id={`global-search-kind-${s.kind}`} class="global-search-kind">
                  {s.title}
                </div>
                {s.options.map((o) => (
                  // biome-ignore lint/a11y/useFocusableInteractive: the focus stays in the input; the active option is aria-activedescendant
                  // biome-ignore lint/a11y/useKeyWithClickEvents: the input's onKeyDown handles the keys for every option
                  <div
                    key={o.id}
                    id={optionId(o)}
                    role="option"
                    aria-selected={o === activeOption}
                    class="global-search-option"
                    // Keeps the focus in the input, so its blur does not close the list before the click.
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => go(o)}
                  >
                    {o.label}
                    {o.meta && <span class="meta"> {o.meta}</span>}
                  </div>
                ))}
              </div>
            ))}
        </div>
        <p class={shown && status ? "global-search-status meta" : "visually-hidden"} role="status" aria-live="polite">
          {status}
        </p>
      </div>
    </div>
  );
}
