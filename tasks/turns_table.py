"""Single-turn and multi-turn side by side, and what a multi-turn run adds: end reasons, user tokens, pass^k.

CRMArena-Pro's headline is the drop from single-turn to multi-turn (its paper, arXiv 2505.18878):
``crmarena-sf report single.json multi.json`` puts a run of a suite and a run of its interactive
suite in two columns, per task (CRMArena) or per skill and task (CRMArena-Pro), with the change.
A run is interactive when its ``settings.suite`` is one of the interactive suites.
"""

from __future__ import annotations

import html

from crmarena_sf.tasks.families import ALL_FAMILIES


def is_interactive(results) -> bool:
    from crmarena_sf.tasks.users import INTERACTIVE_SUITES

    return results.settings.get("suite") in INTERACTIVE_SUITES


def turn_pair(runs: list):
    """``(single, multi)`` when ``runs`` are one single-turn and one multi-turn run, else None."""
    if len(runs) != 2 or is_interactive(runs[0]) == is_interactive(runs[1]):
        return None
    return (runs[1], runs[0]) if is_interactive(runs[0]) else (runs[0], runs[1])


def _rows(single, multi) -> list[tuple[str, str, float | None, float | None]]:
    """``(kind, name, single, multi)``: skills and tasks for Pro runs, tasks for CRMArena's."""
    from crmarena_sf.tasks.pro.tables import run_suite, skill_rows

    if run_suite(single) is not None:
        return [(kind, name, *values) for kind, name, values in skill_rows([single, multi])]
    a, b = single.scores, multi.scores
    return [("task", t, a.get(t), b.get(t)) for t in ALL_FAMILIES if t in a or t in b]


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _change(a: float | None, b: float | None) -> str:
    return "-" if a is None or b is None else f"{b - a:+.1f}"


def side_by_side(single, multi) -> str:
    """The text table: single-turn, multi-turn and the change, per task (and skill), then overall."""
    rows = _rows(single, multi)
    width = max([len("    " + name) for _, name, _, _ in rows] + [len("overall")])
    lines = [f"{'task':<{width}}  {'single':>7}  {'multi':>7}  {'change':>7}"]
    for kind, name, a, b in rows:
        label = {"skill": name, "task": "  " + name if rows[0][0] == "skill" else name}.get(
            kind, "    " + name
        )
        lines.append(f"{label:<{width}}  {_num(a):>7}  {_num(b):>7}  {_change(a, b):>7}")
    lines.append(
        f"{'overall':<{width}}  {single.overall:>7.1f}  {multi.overall:>7.1f}  {_change(single.overall, multi.overall):>7}"
    )
    return "\n".join(lines)


def side_by_side_html(single, multi) -> str:
    body = "".join(
        f'<tr class="{kind}"><th>{html.escape(name)}</th><td class="num">{_num(a)}</td>'
        f'<td class="num">{_num(b)}</td><td class="num">{_change(a, b)}</td></tr>'
        for kind, name, a, b in _rows(single, multi)
    )
    foot = (
        f'<tr><th>overall</th><td class="num">{single.overall:.1f}</td><td class="num">{multi.overall:.1f}</td>'
        f'<td class="num">{_change(single.overall, multi.overall)}</td></tr>'
    )
    return (
        '<section id="turns"><h2>Single-turn and multi-turn</h2><table class="bars"><thead><tr><th>task</th>'
        '<th class="num">single</th><th class="num">multi</th><th class="num">change</th></tr></thead>'
        f"<tbody>{body}</tbody><tfoot>{foot}</tfoot></table></section>"
    )


def run_facts(results) -> list[str]:
    """Lines on how a run's episodes ended and what its user cost (none for a plain single-turn run)."""
    lines = []
    reasons = results.end_reasons or {}
    if reasons and set(reasons) != {"answered"}:
        lines.append("ended by: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in reasons.items()))
    user, agent = results.user_usage, results.usage
    if user:
        spent = agent["prompt_tokens"] + agent["completion_tokens"] if agent else 0
        lines.append(
            f"tokens: agent {spent:,}, user {user['prompt_tokens'] + user['completion_tokens']:,} (counted apart)"
        )
    return lines


def multi_turn_html(results) -> str:
    """The page's section on end reasons, user tokens and pass^k (empty for a plain single-turn run)."""
    from crmarena_sf.tasks.pass_k import pass_k_table

    facts = run_facts(results)
    if not facts and not results.pass_k:
        return ""
    parts = ['<section id="multi-turn"><h2>Episodes, trials and users</h2>']
    parts += [f'<p class="facts">{html.escape(line)}</p>' for line in facts]
    if results.pass_k:
        parts.append(
            "<p>pass^k over the run's trials (tau-bench's: the chance that k trials of a task all succeed):</p>"
            f"<pre>{html.escape(pass_k_table(results))}</pre>"
        )
    return "".join(parts) + "</section>"
