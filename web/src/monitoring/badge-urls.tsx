// A badge-public monitor's SVG badges, or one a published status page lists (docs/badges.md): each one's URL, shown as the badge itself with
// Markdown to embed it and a copy button. The URLs are this server's, as the browser reached it.
import { CERT_CHECK_TYPES } from "../../../shared/domain/badges/badge-values.ts";

const BADGES = [
  { kind: "status", title: "Status" },
  { kind: "uptime", title: "Uptime (24h; ?period=7d or 30d)" },
  { kind: "response-time", title: "Response time (24h)" },
  { kind: "cert-expiry", title: "Certificate days left" },
] as const;

export function badgeUrls(origin: string, monitorId: number, checkType: string): { kind: string; title: string; url: string }[] {
  return BADGES.filter((b) => b.kind !== "cert-expiry" || CERT_CHECK_TYPES.includes(checkType)).map((b) => ({
    ...b,
    url: `${origin}/api/v1/badges/monitors/${monitorId}/${b.kind}.svg`,
  }));
}

/** `listed`: public only because a published status page lists the monitor (not ticked on its form). */
export function BadgeUrlsPanel({ monitorId, checkType, listed = false }: { monitorId: number; checkType: string; listed?: boolean }) {
  return (
    <section class="badge-urls" aria-labelledby="badge-urls-title">
      <h2 id="badge-urls-title">Public badges</h2>
      <p class="meta">
        Anyone with these links sees the badges (no sign-in). Add <code>?label=</code> to change the left-hand text (docs/badges.md).
      </p>
      {listed && (
        <p class="meta" data-testid="badges-listed">
          They are public because a published status page lists this monitor; unpublishing the page or removing it from the page hides them
          again.
        </p>
      )}
      <ul>
        {badgeUrls(location.origin, monitorId, checkType).map((b) => {
          const markdown = `![${b.kind}](${b.url})`;
          return (
            <li key={b.kind} data-testid={`badge-${b.kind}`}>
              <p>
                {b.title}: <img src={b.url} alt={`${b.kind} badge`} height={20} />
              </p>
              <code>{markdown}</code>{" "}
              <button type="button" onClick={() => void navigator.clipboard?.writeText(markdown)}>
                Copy Markdown
              </button>{" "}
              <button type="button" onClick={() => void navigator.clipboard?.writeText(b.url)}>
                Copy URL
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
