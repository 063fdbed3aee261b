// The sidebar: the navigation's groups (nav-groups.ts), each behind a button that folds it
// (aria-expanded); which groups are folded is remembered in this browser. A folded group holding the
// current screen is marked, so the operator still sees where they are.
import { ChevronDown } from "lucide-preact";
import { useState } from "preact/hooks";
import { useT } from "../i18n/use-t.ts";
import { Link } from "../router.tsx";
import { currentItem, NAV_GROUPS } from "./nav-groups.ts";

const KEY = "svc-nav-folded";

function readFolded(): Set<string> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return new Set(Array.isArray(stored) ? stored.filter((k): k is string => typeof k === "string") : []);
  } catch {
    return new Set();
  }
}

export function SideNav({ path, open }: { path: string; open: boolean }) {
  const t = useT();
  const [folded, setFolded] = useState(readFolded);
  const current = currentItem(path);
  const toggle = (key: string) => {
    const next = new Set(folded);
    if (!next.delete(key)) next.add(key);
    setFolded(next);
    localStorage.setItem(KEY, JSON.stringify([...next]));
  };
  return (
    <nav id="nav" class={`sidenav${open ? " open" : ""}`} aria-label={t("shell:nav.label")}>
      {NAV_GROUPS.map((g) => {
        const isFolded = folded.has(g.key);
        const holdsCurrent = g.items.some((i) => i.href === current);
        const listId = `nav-group-${g.key}`;
        return (
          <div key={g.key} class="nav-group">
            <button
              type="button"
              class={`nav-group-button${holdsCurrent && isFolded ? " holds-current" : ""}`}
              aria-expanded={!isFolded}
              aria-controls={listId}
              onClick={() => toggle(g.key)}
            >
              <g.Icon size={18} />
              <span>{t(g.label)}</span>
              <ChevronDown size={16} class="nav-chevron" />
            </button>
            <ul id={listId} hidden={isFolded}>
              {g.items.map((n) => (
                <li key={n.href}>
                  <Link href={n.href} aria-current={n.href === current ? "page" : undefined}>
                    <n.Icon size={16} />
                    <span>{t(n.label)}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </nav>
  );
}
