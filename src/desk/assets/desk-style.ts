/** The desk's stylesheet, served from `/desk/assets/` (the pages' CSP allows no inline style). */
export const DESK_STYLE = String.raw`
:root {
  --ink: #1c2230; --muted: #5b6475; --line: #d7dbe3; --paper: #ffffff; --ground: #f3f5f8;
  --accent: #1f5fbf; --accent-ink: #ffffff; --ok: #1d6b3a; --ok-ground: #e5f4ea;
  --bad: #a4262c; --bad-ground: #fbe9ea; --warn: #7a4b00; --warn-ground: #fff3d6;
  --focus: #ffbf47; --radius: 10px;
  color-scheme: light;
}
* { box-sizing: border-box; }
html { font-size: 100%; }
body {
  margin: 0; background: var(--ground); color: var(--ink);
  font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
a { color: var(--accent); }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.92em; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -9999px; top: 0; background: var(--paper); padding: 0.5rem 1rem; z-index: 10; }
.skip:focus { left: 1rem; }
.visually-hidden {
  position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
}

.top {
  display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1.5rem;
  padding: 0.6rem 1.25rem; background: var(--ink); color: #fff;
}
.brand { margin: 0; font-weight: 600; }
.brand .office { font-weight: 400; opacity: 0.8; }
.top nav ul { display: flex; flex-wrap: wrap; gap: 0.25rem; list-style: none; margin: 0; padding: 0; }
.top nav a { color: #fff; text-decoration: none; padding: 0.35rem 0.7rem; border-radius: 6px; display: inline-block; }
.top nav a:hover { background: rgba(255, 255, 255, 0.12); }
.top nav a[aria-current="page"] { background: rgba(255, 255, 255, 0.2); font-weight: 600; }
.signout { margin-left: auto; display: flex; align-items: center; gap: 0.6rem; }
.signout .role { opacity: 0.75; }
.top .quiet { color: #fff; border-color: rgba(255, 255, 255, 0.5); background: transparent; }

main { max-width: 1180px; margin: 0 auto; padding: 1.25rem; outline: none; }
h1 { font-size: 1.45rem; margin: 0 0 0.25rem; }
h2 { font-size: 1.1rem; }
.hint, .field-hint { color: var(--muted); margin-top: 0.25rem; }
.field-hint { font-size: 0.9rem; margin: -0.2rem 0 0.4rem; }
.section-head { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; gap: 0.5rem 1rem; }
.head-actions { display: flex; gap: 0.5rem; flex-wrap: wrap; }
.count {
  display: inline-block; min-width: 1.8em; padding: 0 0.45em; border-radius: 999px; text-align: center;
  background: var(--accent); color: var(--accent-ink); font-size: 0.95rem; vertical-align: middle;
}
.live { margin: 0; font-size: 0.9rem; color: var(--muted); }
.live::before { content: ""; display: inline-block; width: 0.6em; height: 0.6em; border-radius: 50%; margin-right: 0.4em; background: #b0b6c2; }
.live[data-state="live"]::before { background: #2e9d57; }

button, .button {
  font: inherit; cursor: pointer; border-radius: 8px; padding: 0.45rem 0.95rem; min-height: 2.5rem;
  border: 1px solid var(--line); background: var(--paper); color: var(--ink); text-decoration: none;
  display: inline-flex; align-items: center; justify-content: center;
}
button:disabled { opacity: 0.55; cursor: progress; }
.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-ink); }
.approve { background: var(--ok); border-color: var(--ok); color: #fff; }
.reject { background: var(--paper); border-color: var(--bad); color: var(--bad); }
.quiet { background: transparent; }

.flash { padding: 0.65rem 0.9rem; border-radius: 8px; border: 1px solid; margin: 0.75rem 0; }
.flash-ok { background: var(--ok-ground); border-color: #9ccfae; color: var(--ok); }
.flash-error { background: var(--bad-ground); border-color: #e4a5a9; color: var(--bad); }
.empty { padding: 2rem 1rem; text-align: center; color: var(--muted); background: var(--paper); border: 1px dashed var(--line); border-radius: var(--radius); }

.queue { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.9rem; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); }
.card { background: var(--paper); border: 1px solid var(--line); border-radius: var(--radius); padding: 0.9rem 1rem; border-top: 4px solid var(--accent); }
.card.kind-cancellation { border-top-color: var(--bad); }
.card.kind-escalation { border-top-color: var(--warn); }
.card.fresh { animation: arrive 1.6s ease-out; }
@keyframes arrive { from { box-shadow: 0 0 0 4px var(--focus); } to { box-shadow: none; } }
@media (prefers-reduced-motion: reduce) { .card.fresh { animation: none; box-shadow: 0 0 0 3px var(--focus); } }
.card-head { display: grid; grid-template-columns: auto 1fr; gap: 0 0.6rem; align-items: baseline; }
.card-head h3 { margin: 0; font-size: 1.1rem; overflow-wrap: anywhere; }
.card-head .received { grid-column: 1 / -1; margin: 0.1rem 0 0; color: var(--muted); font-size: 0.88rem; }
.badge { font-size: 0.78rem; font-weight: 600; text-transform: uppercase; letter-spacing: 0.03em; padding: 0.1rem 0.5rem; border-radius: 999px; background: #e4ecfa; color: var(--accent); }
.badge-cancellation { background: var(--bad-ground); color: var(--bad); }
.badge-escalation { background: var(--warn-ground); color: var(--warn); }
.facts { display: grid; grid-template-columns: 1fr 1fr; gap: 0.3rem 1rem; margin: 0.7rem 0; }
.facts div { min-width: 0; }
.facts dt { font-size: 0.8rem; color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.urgency-high { color: var(--bad); font-weight: 600; }
.said { margin: 0.5rem 0; }
.said-label { margin: 0; font-size: 0.8rem; color: var(--muted); }
.said blockquote { margin: 0.2rem 0 0; padding: 0.4rem 0.7rem; background: var(--ground); border-left: 3px solid var(--line); white-space: pre-wrap; overflow-wrap: anywhere; }
.said-none { color: var(--muted); font-size: 0.9rem; }
.decision { display: grid; gap: 0.35rem; margin-top: 0.6rem; }
.decision label { font-size: 0.88rem; color: var(--muted); }
.decision textarea, .stack input, .stack select, .filters input {
  font: inherit; width: 100%; padding: 0.45rem 0.6rem; border: 1px solid #aab1bf; border-radius: 8px; background: #fff; color: var(--ink);
}
.actions { display: flex; gap: 0.5rem; flex-wrap: wrap; }
.actions button { flex: 1 1 8rem; }

.login { max-width: 420px; margin: 3rem auto; background: var(--paper); padding: 1.5rem; border-radius: var(--radius); border: 1px solid var(--line); }
.stack { display: grid; gap: 0.35rem; }
.stack button { margin-top: 0.6rem; }
.narrow { max-width: 460px; }

.tabs, .pager { display: flex; gap: 0.5rem; flex-wrap: wrap; margin: 0.5rem 0; }
.tabs a, .pager a { padding: 0.3rem 0.75rem; border: 1px solid var(--line); border-radius: 999px; background: var(--paper); text-decoration: none; }
.tabs a[aria-current="page"] { background: var(--accent); color: #fff; border-color: var(--accent); }
.calendar { display: grid; gap: 0.75rem; }
.calendar-week { grid-template-columns: repeat(7, minmax(0, 1fr)); }
.day { background: var(--paper); border: 1px solid var(--line); border-radius: var(--radius); padding: 0.6rem; min-width: 0; }
.day.today { border-color: var(--accent); box-shadow: inset 0 3px 0 var(--accent); }
.day h2 { font-size: 0.95rem; margin: 0 0 0.4rem; }
.free { color: var(--muted); font-size: 0.9rem; margin: 0; }
.entries { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.4rem; }
.entry { display: grid; gap: 0.05rem; padding: 0.4rem 0.5rem; border-radius: 6px; background: var(--ground); border-left: 4px solid var(--accent); font-size: 0.9rem; overflow-wrap: anywhere; }
.entry.status-pending_approval { border-left-style: dashed; border-left-color: var(--warn); }
.entry.status-cancel_requested { border-left-color: var(--bad); }
.entry .time { font-weight: 600; }
.entry .status { font-size: 0.8rem; color: var(--muted); }
.entry .ref { font-size: 0.75rem; color: var(--muted); }
.calendar-today .entry { grid-template-columns: 8rem 1fr; }

.filters { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 0.6rem; align-items: end; background: var(--paper); padding: 0.8rem; border-radius: var(--radius); border: 1px solid var(--line); margin: 0.8rem 0; }
.field { display: grid; gap: 0.2rem; }
.field label { font-size: 0.85rem; color: var(--muted); }
.field-actions { display: flex; gap: 0.4rem; }
.table-wrap { overflow-x: auto; background: var(--paper); border: 1px solid var(--line); border-radius: var(--radius); }
table { border-collapse: collapse; width: 100%; font-size: 0.92rem; }
th, td { text-align: left; padding: 0.5rem 0.65rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--ground); font-weight: 600; }
td.details { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.8rem; overflow-wrap: anywhere; max-width: 28rem; }
.actor { font-size: 0.75rem; padding: 0.05rem 0.4rem; border-radius: 999px; background: var(--ground); }
.actor-staff { background: var(--ok-ground); color: var(--ok); }
.row-actions { display: flex; gap: 0.4rem; flex-wrap: wrap; }
.reveal { background: var(--warn-ground); border: 1px solid #e8c979; border-radius: var(--radius); padding: 0.6rem 0.9rem; }
.secret { font: 1.15rem ui-monospace, Menlo, Consolas, monospace; background: #fff; padding: 0.2rem 0.5rem; border-radius: 6px; user-select: all; }
.problem { background: var(--paper); padding: 1.5rem; border-radius: var(--radius); border: 1px solid var(--line); }

@media (max-width: 900px) {
  .calendar-week { grid-template-columns: 1fr; }
}
.calls { list-style: none; padding: 0; display: grid; gap: 1rem; }
.calls > li { background: var(--paper); border: 1px solid var(--line); border-radius: var(--radius); padding: 1rem; }
.call-status { font-size: 0.9rem; font-weight: normal; }
.transcript { font-size: 0.92rem; max-height: 16rem; overflow-y: auto; }
.calls .actions, .mint { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: end; }
.minted code { word-break: break-all; user-select: all; }
@media (max-width: 600px) {
  main { padding: 0.75rem; }
  .top { padding: 0.5rem 0.75rem; }
  .signout { margin-left: 0; width: 100%; justify-content: space-between; }
  .queue { grid-template-columns: 1fr; }
  .facts { grid-template-columns: 1fr; }
  .calendar-today .entry { grid-template-columns: 1fr; }
  .login { margin: 1rem auto; }
}
`;
