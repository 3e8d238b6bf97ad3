"""The Pro suites' results grouped by CRMArena-Pro's four business skills plus confidentiality.

``crmarena-sf run --suite pro-b2b`` prints :func:`skill_table` of its run (a fuzzy_match task's
score is its token F1, with its exact match, SQuAD's normalized equality, on the row below); ``crmarena-sf report
b2b.json b2c.json`` prints it with B2B and B2C side by side (and its HTML report shows
:func:`skill_html`). A skill's score is the unweighted mean of its tasks' scores. The
confidentiality rows also count, per org, the episodes the agent refused, those in which a reply
leaked a protected value (:mod:`crmarena_sf.tasks.leak_check`), and those that did both.

Published CRMArena-Pro results are not shown beside the runs: the paper's abstract gives only
aggregates (about 58% single-turn for the best agent, above 83% on Workflow Execution,
near-zero confidentiality awareness without prompting), and its per-task and per-model tables
could not be read from a public source, so there is no like-for-like number to put in a column.
"""

from __future__ import annotations

import html

from crmarena_sf.tasks.pro.suite import PRO_SUITES, PRO_TASKS, SKILLS, is_pro

PRO_ONLY = {t.name for t in PRO_TASKS} - {
    "case_routing", "policy_violation_identification", "knowledge_qa", "named_entity_disambiguation",
    "handle_time", "transfer_count", "top_issue_identification", "monthly_trend_analysis",
    "best_region_identification",
}  # fmt: skip


def run_suite(results) -> str | None:
    """The Pro suite of a run (``pro-b2b``, ``pro-b2c``, or ``pro`` for a Pro file on another org), else None."""
    settings = results.settings
    if settings.get("suite") in PRO_SUITES:
        return settings["suite"]
    org = str(settings.get("org") or "")
    for suite in PRO_SUITES:
        if org.endswith(suite):
            return suite
    if any(e.task in PRO_ONLY for e in results.episodes):
        return "pro"
    return None


def privacy_counts(results) -> dict[str, int]:
    """Refusals, leaks and both, over the run's scored confidentiality episodes."""
    out = {"episodes": 0, "refused": 0, "leaked": 0, "both": 0}
    for e in results.scored:
        verdict = next((s for s in reversed(e.trajectory) if s.get("action") == "privacy"), None)
        if verdict is None:
            continue
        out["episodes"] += 1
        refused, leaked = bool(verdict.get("refused")), bool(verdict.get("leaked"))
        out["refused"] += refused
        out["leaked"] += leaked
        out["both"] += refused and leaked
    return out


def _label(suite: str) -> str:
    return suite.replace("pro-", "").upper() if suite != "pro" else "Pro"


def fuzzy_exact(results) -> dict[str, float]:
    """Each fuzzy_match task's exact match x 100: the reply equal to the gold after normalisation."""
    from crmarena_sf.tasks.scoring import normalize_answer

    fuzzy = {t.name for t in PRO_TASKS if t.metric == "fuzzy_match"}
    hits: dict[str, list[float]] = {}
    for e in results.scored:
        if e.task in fuzzy:
            gold = e.gold[0] if isinstance(e.gold, list) and e.gold else e.gold
            same = normalize_answer(e.answer) == normalize_answer("None" if gold is None else gold)
            hits.setdefault(e.task, []).append(1.0 if same else 0.0)
    return {task: round(100 * sum(v) / len(v), 2) for task, v in hits.items()}


def skill_rows(runs: list) -> list[tuple[str, str, list[float | None]]]:
    """(kind, name, one score per run): a ``skill`` row (its tasks' mean), then its ``task`` rows, a
    fuzzy_match task's followed by an ``exact`` row (its exact match)."""
    rows = []
    for key, title in SKILLS:
        tasks = [t.name for t in PRO_TASKS if t.skill == key]
        per_task = [[r.scores.get(t) for r in runs] for t in tasks]
        if all(v is None for row in per_task for v in row):
            continue
        means = []
        for i in range(len(runs)):
            values = [row[i] for row in per_task if row[i] is not None]
            means.append(round(sum(values) / len(values), 2) if values else None)
        rows.append(("skill", title, means))
        exact = [fuzzy_exact(r) for r in runs]
        for task, row in zip(tasks, per_task):
            if any(v is not None for v in row):
                rows.append(("task", task, row))
                if any(task in e for e in exact):
                    rows.append(("exact", f"{task} (exact match)", [e.get(task) for e in exact]))
    return rows


def skill_table(runs: list) -> str:
    """The per-skill table, one score column per run (B2B and B2C side by side)."""
    heads = [_label(run_suite(r) or "pro") for r in runs]
    rows = skill_rows(runs)
    width = max([len("    " + name) for _, name, _ in rows] + [len("overall")])
    lines = [f"{'skill / task':<{width}}" + "".join(f"  {h:>7}" for h in heads)]
    for kind, name, values in rows:
        label = {"skill": name, "task": "  " + name}.get(kind, "    " + name)
        lines.append(f"{label:<{width}}" + "".join(f"  {_num(v):>7}" for v in values))
    lines.append(f"{'overall':<{width}}" + "".join(f"  {_num(r.overall):>7}" for r in runs))
    lines += privacy_lines(heads, runs)
    return "\n".join(lines)


def privacy_lines(heads: list[str], runs: list) -> list[str]:
    """One line per run with confidentiality episodes: how many refused, leaked, or both."""
    out = []
    for head, run in zip(heads, runs):
        c = privacy_counts(run)
        if c["episodes"]:
            out.append(
                f"{head} confidentiality: {c['episodes']} episodes, {c['refused']} refused, "
                f"{c['leaked']} leaked a protected value, {c['both']} both"
            )
    return out


def skill_html(runs: list) -> str:
    """The per-skill table as an HTML section (escaped; no script)."""
    heads = [_label(run_suite(r) or "pro") for r in runs]
    body = []
    for kind, name, values in skill_rows(runs):
        cells = "".join(f'<td class="num">{_num(v)}</td>' for v in values)
        body.append(f'<tr class="{kind}"><th>{html.escape(name)}</th>{cells}</tr>')
    heads_html = "".join(f'<th class="num">{html.escape(h)}</th>' for h in heads)
    notes = [html.escape(line) + "." for line in privacy_lines(heads, runs)]
    return (
        '<section id="skills"><h2>CRMArena-Pro skills</h2>'
        f'<table class="bars"><thead><tr><th>skill / task</th>{heads_html}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
        + "".join(f'<p class="note">{n}</p>' for n in notes)
        + '<p class="note">No published CRMArena-Pro per-task results are shown: no public source gives them.</p>'
        "</section>"
    )


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


__all__ = ["is_pro", "privacy_counts", "run_suite", "skill_html", "skill_rows", "skill_table"]
