// The console's shell: first run while no administrator exists, sign-in while nobody is signed in, then
// the navigation and the screen of the current path.
import { useEffect, useState } from "preact/hooks";
import { api, ok, onUnauthorized } from "./api/client.ts";
import { ApiProblem, messageOf } from "./api/problem.ts";
import { FirstRun } from "./auth/first-run.tsx";
import { takeOAuthCallback } from "./auth/oauth.tsx";
import { SessionProvider, sessionOf, type Session, useSession } from "./auth/session.tsx";
import { SignIn } from "./auth/sign-in.tsx";
import { CliLoginPage } from "./auth/cli-login.tsx";
import { AgentsPage } from "./agents/agents-page.tsx";
import { Notice } from "./components/field.tsx";
import { DiscoveryPage } from "./discovery/discovery-page.tsx";
import { ProfilesPage } from "./discovery/profiles-page.tsx";
import { DetailPage } from "./inventory/detail-page.tsx";
import { TracePage } from "./cabling/trace-page.tsx";
import { FormPage } from "./inventory/form-page.tsx";
import { groupOf } from "./inventory/groups.ts";
import { ListPage } from "./inventory/list-page.tsx";
import { ImportPage } from "./inventory/import-page.tsx";
import { MonitoringOverview } from "./monitoring/overview.tsx";
import { MonitorPage } from "./monitoring/monitor-page.tsx";
import { MonitorForm } from "./monitoring/monitor-form.tsx";
import { AgentPage } from "./agents/agent-page.tsx";
import { RuleForm } from "./alert-rules/rule-form.tsx";
import { AlertPage } from "./alerts/alert-page.tsx";
import { AlertsPage } from "./alerts/alerts-page.tsx";
import { RulePage } from "./alert-rules/rule-page.tsx";
import { RulesPage } from "./alert-rules/rules-page.tsx";
import { EventRuleForm } from "./event-rules/rule-form.tsx";
import { EventRulePage } from "./event-rules/rule-page.tsx";
import { EventRulesPage } from "./event-rules/rules-page.tsx";
import { SettingsPage } from "./settings/settings-page.tsx";
import { maintenanceScreen } from "./maintenance/routes.tsx";
import { statusPagesScreen } from "./status-pages/routes.tsx";
import { Link, match, navigate, useLocation } from "./router.tsx";
import { setLocale } from "./i18n/i18n.ts";
import { useT } from "./i18n/use-t.ts";
import { GlobalSearch } from "./shell/global-search.tsx";
import { LanguagePicker } from "./shell/language-picker.tsx";
import { SideNav } from "./shell/side-nav.tsx";
import { ThemeToggle } from "./theme.tsx";
import { LazyTopology } from "./topology/lazy-topology.tsx";

type Gate =
  | { kind: "loading" }
  | { kind: "first-run" }
  | { kind: "sign-in"; notice?: string }
  | { kind: "ready"; session: Session }
  | { kind: "error"; message: string };

// Read once, before the first render, so a reload does not replay a provider's one-time code.
const callback = takeOAuthCallback();

export function App() {
  const t = useT();
  const [gate, setGate] = useState<Gate>({ kind: "loading" });

  const load = async (notice?: string): Promise<void> => {
    try {
      // Who is signed in first: a returning operator's screen needs one round trip less.
      const { data, response } = await api.GET("/api/v1/auth/me");
      if (data) {
        // The user's language wins over the browser's (null: follow the browser).
        await setLocale(data.locale);
        // Back to the screen a provider sign-in started from (its callback lands on /).
        if (callback.returnTo) navigate(callback.returnTo, { replace: true });
        delete callback.returnTo;
        return setGate({ kind: "ready", session: sessionOf(data, signOut, () => load()) });
      }
      // 401 signed out; before first run there is no user to be (404).
      if (response.status >= 500) throw new ApiProblem(response.status, undefined);
      const status = await ok(api.GET("/api/v1/bootstrap/status"));
      if (status.needs_bootstrap) return setGate({ kind: "first-run" });
      setGate({ kind: "sign-in", ...(notice ? { notice } : {}) });
    } catch (e) {
      setGate({ kind: "error", message: e instanceof ApiProblem ? e.message : t("shell:error.unreachable", { reason: messageOf(e) }) });
    }
  };
  const signOut = async () => {
    await api.POST("/api/v1/auth/logout").catch(() => undefined);
    await setLocale(null);
    setGate({ kind: "sign-in", notice: t("shell:notice.signedOut") });
  };

  useEffect(() => {
    void load();
    return onUnauthorized(() => setGate({ kind: "sign-in", notice: t("shell:notice.sessionEnded") }));
  }, []);

  if (gate.kind === "loading")
    return (
      <p class="splash" aria-busy="true">
        {t("common:loading")}
      </p>
    );
  if (gate.kind === "error")
    return (
      <main class="auth-card">
        <Notice kind="error">{gate.message}</Notice>
        <button type="button" onClick={() => void load()}>
          {t("common:tryAgain")}
        </button>
      </main>
    );
  if (gate.kind === "first-run")
    return <FirstRun providerCode={callback.bootstrapCode} provider={callback.provider} onDone={() => void load()} />;
  if (gate.kind === "sign-in") return <SignIn notice={gate.notice} mfaToken={callback.mfaToken} onDone={() => void load()} />;
  return (
    <SessionProvider value={gate.session}>
      <Shell />
    </SessionProvider>
  );
}

function Shell() {
  const t = useT();
  const session = useSession();
  const loc = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [loc.path]);
  const readOnly = !session.can("write:hardware");
  return (
    <div class="shell">
      <a class="skip" href="#main">
        {t("shell:skipToContent")}
      </a>
      <header class="topbar">
        <button type="button" class="menu-button" aria-expanded={menuOpen} aria-controls="nav" onClick={() => setMenuOpen(!menuOpen)}>
          {t("shell:menu")}
        </button>
        <Link href="/" class="brand">
          {t("shell:brand")}
        </Link>
        {session.can("read:search") && <GlobalSearch />}
        <div class="topbar-right">
          {readOnly && (
            <span class="badge" title={t("shell:readOnly.title")}>
              {t("shell:readOnly.badge")}
            </span>
          )}
          <span class="who">
            {session.user.display_name ?? session.user.email} <span class="meta">({session.user.role})</span>
          </span>
          <LanguagePicker />
          <ThemeToggle />
          <button type="button" onClick={() => void session.signOut()}>
            {t("shell:signOut")}
          </button>
        </div>
      </header>
      <SideNav path={loc.path} open={menuOpen} />
      <main id="main" tabIndex={-1}>
        <Screen />
      </main>
    </div>
  );
}

function Screen() {
  const t = useT();
  const loc = useLocation();
  const path = loc.path;
  if (path === "/" || path === "") return <MonitoringOverview />;
  if (path === "/agents") return <AgentsPage />;
  if (path === "/cli-login") return <CliLoginPage loc={loc} />;
  if (path === "/discovery") return <DiscoveryPage />;
  if (path === "/discovery/profiles") return <ProfilesPage />;
  if (path === "/topology") return <LazyTopology loc={loc} />;
  if (path === "/settings" || path.startsWith("/settings/")) return <SettingsPage section={path.split("/")[2]} />;
  if (path === "/monitors/new") return <MonitorForm key="new" />;
  if (path === "/alerts") return <AlertsPage />;
  if (path === "/alert-rules") return <RulesPage />;
  if (path === "/event-rules") return <EventRulesPage />;
  if (path === "/event-rules/new") return <EventRuleForm key="new" />;
  if (path === "/alert-rules/new") return <RuleForm key="new" />;
  const maintenance = path === "/maintenance" || path.startsWith("/maintenance/") ? maintenanceScreen(path) : undefined;
  if (maintenance) return maintenance;
  if (path === "/status-pages" || path.startsWith("/status-pages/")) {
    const screen = statusPagesScreen(path);
    if (screen) return screen;
  }
  let m = match("/monitors/:id/edit", path);
  if (m) return <MonitorForm key={`edit-${m.id}`} id={m.id} />;
  m = match("/event-rules/:id/edit", path);
  if (m) return <EventRuleForm key={`edit-${m.id}`} id={m.id} />;
  m = match("/event-rules/:id", path);
  if (m) return <EventRulePage key={m.id} id={m.id!} />;
  m = match("/alert-rules/:id/edit", path);
  if (m) return <RuleForm key={`edit-${m.id}`} id={m.id} />;
  m = match("/alerts/:id", path);
  if (m) return <AlertPage key={m.id} id={m.id!} />;
  m = match("/alert-rules/:id", path);
  if (m) return <RulePage key={m.id} id={m.id!} />;
  m = match("/monitors/:id", path) ?? match("/agents/:id", path);
  if (m && path.startsWith("/monitors/")) return <MonitorPage key={m.id} id={m.id!} />;
  if (m) return <AgentPage key={m.id} id={m.id!} />;
  m = match("/cabling/trace/:kind/:id", path);
  if (m) return <TracePage key={`${m.kind}-${m.id}`} kind={m.kind!} id={m.id!} />;
  m = match("/inventory/:group", path);
  if (m) {
    const g = groupOf(m.group);
    if (g) return <ListPage key={g.key} group={g} loc={loc} />;
  }
  m = match("/inventory/:group/import", path);
  if (m && groupOf(m.group)?.bulk) return <ImportPage key={`${m.group}-import`} group={groupOf(m.group)!} />;
  m = match("/inventory/:group/new", path);
  if (m && groupOf(m.group)) return <FormPage key={`${m.group}-new`} group={groupOf(m.group)!} />;
  m = match("/inventory/:group/:id/edit", path);
  if (m && groupOf(m.group)) return <FormPage key={`${m.group}-${m.id}`} group={groupOf(m.group)!} id={m.id} />;
  m = match("/inventory/:group/:id/history", path);
  if (m && groupOf(m.group)) return <DetailPage key={`${m.group}-${m.id}`} group={groupOf(m.group)!} id={m.id!} tab="history" />;
  m = match("/inventory/:group/:id/journal", path);
  if (m && groupOf(m.group)) return <DetailPage key={`${m.group}-${m.id}`} group={groupOf(m.group)!} id={m.id!} tab="journal" />;
  m = match("/inventory/:group/:id", path);
  if (m && groupOf(m.group)) return <DetailPage key={`${m.group}-${m.id}`} group={groupOf(m.group)!} id={m.id!} />;
  return (
    <section>
      <h1>{t("shell:notFound.title")}</h1>
      <p>{t("shell:notFound.text", { path })}</p>
      <button type="button" onClick={() => navigate("/")}>
        {t("shell:notFound.home")}
      </button>
    </section>
  );
}
