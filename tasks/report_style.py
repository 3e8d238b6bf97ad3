"""The report page's stylesheet: system fonts only, bars as CSS widths, nothing loaded from elsewhere."""

CSS = """
:root { --ink: #1f2933; --muted: #616e7c; --line: #d9e2ec; --bar: #2e7d32; --soft: #f5f7fa; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1180px; padding: 24px 28px 60px; color: var(--ink);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 24px; margin: 0 0 6px; } h2 { font-size: 19px; margin: 34px 0 10px;
  border-bottom: 1px solid var(--line); padding-bottom: 4px; } h3 { font-size: 15px; margin: 22px 0 6px; }
a { color: inherit; } abbr { color: var(--muted); font-size: 12px; text-decoration: none; }
.overall { margin: 4px 0; } .big { font-size: 30px; font-weight: 700; margin-right: 4px; }
.facts, .muted, .source { color: var(--muted); } .source { font-size: 12px; }
.note { background: #fff8e1; border-left: 4px solid #f0b429; padding: 8px 12px; margin: 8px 0 12px; }
table { border-collapse: collapse; } th, td { padding: 4px 8px; text-align: left; vertical-align: top; }
thead th { border-bottom: 2px solid var(--line); font-weight: 600; } tbody tr { border-bottom: 1px solid var(--line); }
tfoot th, tfoot td { border-top: 2px solid var(--line); font-weight: 600; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.bars { width: 100%; } .bars tr > :first-child { white-space: nowrap; font-weight: 500; }
.bars td.track { width: 100%; } .bars th.track { text-align: left; }
td.track { background: linear-gradient(90deg, transparent calc(50% - 1px), var(--line) 50%, transparent calc(50% + 1px)); }
.bar { height: 16px; background: var(--bar); border-radius: 2px; min-width: 1px; } .bar.total { background: #1565c0; }
.score { font-weight: 600; }
.scroll { overflow-x: auto; } .leaderboard { font-size: 13px; width: 100%; } .leaderboard caption { text-align: left;
  color: var(--muted); padding: 4px 0; } .leaderboard td.overall { font-weight: 700; }
.leaderboard tbody { border-top: 2px solid var(--line); } .this-run { background: #e3f2fd; }
.this-run .baseline, td.baseline { color: var(--muted); }
.missing { color: var(--muted); }
.settings th { color: var(--muted); font-weight: 500; } .settings td { font-family: ui-monospace, SFMono-Regular,
  Menlo, Consolas, monospace; font-size: 12px; word-break: break-all; }
details.episode { border: 1px solid var(--line); border-radius: 4px; margin: 3px 0; }
details.episode > summary { cursor: pointer; display: flex; gap: 10px; align-items: baseline; padding: 4px 8px;
  white-space: nowrap; overflow: hidden; }
details.episode[open] > summary { background: var(--soft); }
details.episode > summary::before { content: "▸"; color: var(--muted); width: 10px; }
details.episode[open] > summary::before { content: "▾"; }
summary .idx { width: 52px; color: var(--muted); font-variant-numeric: tabular-nums; }
summary .abbr { width: 32px; color: var(--muted); font-size: 12px; }
summary .answer, summary .gold { overflow: hidden; text-overflow: ellipsis; flex: 1 1 0; min-width: 0; }
summary .gold { color: var(--muted); }
.reward { min-width: 38px; text-align: center; border-radius: 3px; font-weight: 600; font-size: 12px; padding: 0 4px; }
.reward.pass { background: #c8e6c9; } .reward.partial { background: #fff3c4; } .reward.fail { background: #ffcdd2; }
.reward.error { background: #b71c1c; color: #fff; }
.error-flag { color: #b71c1c; overflow: hidden; text-overflow: ellipsis; flex: 1 1 0; min-width: 0; }
.body { padding: 6px 12px 10px; } .body dl { display: grid; grid-template-columns: max-content 1fr;
  gap: 2px 12px; margin: 0 0 8px; } .body dt { color: var(--muted); } .body dd { margin: 0; white-space: pre-wrap;
  word-break: break-word; }
.steps { margin: 0; padding-left: 26px; } .step { margin: 4px 0; }
.step pre { margin: 2px 0 0; padding: 6px 8px; background: var(--soft); border-radius: 3px; white-space: pre-wrap;
  word-break: break-word; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.action { display: inline-block; font-size: 12px; font-weight: 600; padding: 0 6px;
  border-radius: 3px; background: #e4e7eb; }
.act-soql, .act-sosl, .act-execute { background: #d0e7ff; } .act-tool { background: #e5d9fa; }
.act-think, .act-model { background: #f0f4c3; } .act-respond { background: #c8e6c9; } .act-error { background: #ffcdd2; }
"""
