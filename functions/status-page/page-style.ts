// The status page's one inline stylesheet: readable without script and on a phone (bars shrink to the
// width, nothing overflows). The page's colours are #RRGGBB, checked when stored (page or branding).
export function pageStyle(primary: string, accent: string): string {
  return `:root{--primary:${primary};--accent:${accent};--ok:#2e9d57;--warn:#d9a400;--bad:#d1453b;--none:#c9ced6;--maint:#4a7fd4}
*{box-sizing:border-box}body{font:16px/1.5 system-ui,-apple-system,Segoe UI,sans-serif;color:#1f2328;background:#f6f7f9;margin:0}
main{max-width:52rem;margin:0 auto;padding:1rem}header{display:flex;gap:.8rem;align-items:center;flex-wrap:wrap}
header img{max-height:3rem;max-width:10rem}h1{margin:.2rem 0;font-size:1.6rem}h2{font-size:1.15rem;margin:1.6rem 0 .5rem}
.banner{padding:.8rem 1rem;border-radius:.5rem;color:#fff;font-weight:600;margin:1rem 0;background:var(--primary)}
.banner.operational{background:var(--ok)}.banner.degraded{background:var(--warn);color:#1f2328}.banner.outage{background:var(--bad)}
.banner.maintenance{background:var(--maint)}.banner.unknown{background:#6b7280}
.card{background:#fff;border:1px solid #e3e6ea;border-radius:.5rem;padding:.8rem 1rem;margin:.5rem 0}
.row{display:flex;justify-content:space-between;gap:.5rem;flex-wrap:wrap}.name{font-weight:600;overflow-wrap:anywhere}
.state{font-weight:600}.state.up{color:var(--ok)}.state.degraded{color:#9a7500}.state.down{color:var(--bad)}.state.maintenance{color:var(--maint)}.state.unknown{color:#6b7280}
.note,.meta{color:#57606a;font-size:.9rem;overflow-wrap:anywhere}
.bar{display:flex;gap:1px;height:2rem;margin:.4rem 0 .1rem}.bar.fine{height:1rem}.bar span{flex:1;min-width:0;border-radius:1px;background:var(--none)}
.bar .u100{background:var(--ok)}.bar .u99{background:#8cc63f}.bar .u95{background:var(--warn)}.bar .u0{background:var(--bad)}
.legend{display:flex;justify-content:space-between;color:#57606a;font-size:.8rem}
footer{margin:2rem 0 1rem;color:#57606a;font-size:.9rem;border-top:1px solid #e3e6ea;padding-top:.8rem;overflow-wrap:anywhere}
a{color:var(--accent)}
.incident{border-left:.3rem solid var(--warn)}.incident.major,.incident.critical{border-left-color:var(--bad)}.incident.none{border-left-color:var(--none)}
.timeline{list-style:none;margin:.5rem 0 0;padding:0}.timeline li{border-top:1px solid #e3e6ea;padding:.4rem 0}
.md{overflow-wrap:anywhere}.md p{margin:.3rem 0}.md pre{overflow-x:auto;background:#f6f7f9;padding:.4rem}
nav.row{margin:1rem 0}`;
}
