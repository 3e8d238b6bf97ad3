"""The HTML report of a results.json: one self-contained page a reader can open anywhere.

The page holds the per-task scores as bars, the published CRMArena leaderboard beside this run
(labelled as measured on the original CRMArena org; only for runs with CRMArena's tasks, not
the text-to-SOQL track, which it does not cover), the run's settings, its token usage when
an LLM agent recorded any, and every episode with its question and trajectory behind a
``<details>`` click.
It loads nothing: the style is one ``<style>`` element, the bars are CSS widths, there is no
script, font, image or link outside the page. Everything that comes from the file (answers,
queries, model text, settings, even step keys) is HTML-escaped; a trajectory step is drawn
generically (its ``action`` as a label, its other fields as preformatted text), so new step
kinds need no change here. Long step fields are clipped (each field, and all of an episode's
fields together) so a 1,170-episode report stays a few MB; results.json keeps them whole.
"""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path
from typing import Any

from crmarena_sf.tasks.families import ALL_FAMILIES, SUITES
from crmarena_sf.tasks.leaderboard import ABBREVIATIONS, COLUMNS, FRAMEWORKS, PAPER, ROWS, SOURCE
from crmarena_sf.tasks.report_style import CSS
from crmarena_sf.tasks.results import UNSCORED_CAUSES, EpisodeResult, Results

MAX_FIELD_CHARS = 600
"""A step field longer than this is clipped in the page (results.json has it whole)."""
EPISODE_CHARS = 1500
"""An episode's step fields share this many characters; once spent, each later field shows
its first ``FIELD_FLOOR_CHARS``. With the clip above it bounds the page whatever the agent logged."""
FIELD_FLOOR_CHARS = 60
CLIP_SLACK_CHARS = 80
SUMMARY_CHARS = 80
"""Answers and gold answers longer than this are shortened in an episode's one-line summary."""

_UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
_CLASS_UNSAFE = re.compile("[^a-z0-9_-]")


def write_html(
    results: Results,
    data: dict[str, Any],
    path: str | Path,
    others: list[Results] = (),
    others_data: list[dict[str, Any]] = (),
) -> Path:
    """Write the report of ``results`` (``data``: the results.json object) to ``path`` atomically."""
    path = Path(path)
    page = render_html(results, data, others, others_data)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(page, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def render_html(
    results: Results,
    data: dict[str, Any],
    others: list[Results] = (),
    others_data: list[dict[str, Any]] = (),
) -> str:
    """The report page of ``results``; ``data`` is the results.json object (usage, turns ...).

    ``others`` are the runs shown beside it (the other Pro org, or the same suite in the other
    mode) and ``others_data`` their results.json objects: each run's episodes get a section of
    their own, so a multi-turn run's trajectories, the user's turns in them, are on the page
    whichever file came first.
    """
    settings = results.settings
    who = _run_name(settings)
    pairs = _pairs(results, data)
    runs = [(results, pairs), *((o, _pairs(o, d)) for o, d in zip(others, others_data, strict=True))]
    titled = len(runs) > 1
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>CRMArena results: {_e(who)}</title>",
        f"<style>{CSS}</style>",
        "</head>",
        "<body>",
        _header(results, who),
        _bars(results),
        _turns(results, list(others)),
        _pro_skills(results, list(others)),
        _leaderboard(results, who),
        _settings(settings),
        _usage(results, data, pairs),
        *(
            _episodes(run, run_pairs, n if titled else None)
            for n, (run, run_pairs) in enumerate(runs, start=1)
        ),
        "</body>",
        "</html>",
    ]
    return "\n".join(parts) + "\n"


def _header(results: Results, who: str) -> str:
    settings = results.settings
    errors = sum(1 for e in results.scored if e.error)
    facts = [
        f"{len(results.episodes):,} episodes",
        f"{len(results.scores)} of {_suite_size(results)} tasks",
        f"backend {settings.get('backend', 'unknown')}",
    ]
    if settings.get("org"):
        facts.append(f"org {settings['org']}")
    if errors:
        facts.append(f"{errors} episode{'s' if errors != 1 else ''} failed with an error")
    for cause, episodes in results.unscored_by_cause().items():
        n = len(episodes)
        facts.append(
            f"{n} episode{'s' if n != 1 else ''} not scored ({UNSCORED_CAUSES.get(cause, cause)}; a resume runs "
            f"{'them' if n != 1 else 'it'} again)"
        )
    return (
        f"<header><h1>CRMArena results: {_e(who)}</h1>"
        f'<p class="overall"><span class="big">{results.overall:.1f}</span> overall '
        "(the unweighted mean of the task scores, each the mean reward &#215; 100)</p>"
        f'<p class="facts">{_e(" · ".join(facts))}</p></header>'
    )


def _suite_size(results: Results) -> int:
    """How many tasks the suite of the run's tasks has (every task of every suite for a mix)."""
    ran = {e.task for e in results.episodes}
    return next((len(suite) for suite in SUITES.values() if ran <= set(suite)), len(ALL_FAMILIES))


def _abbreviation(task: str) -> str:
    """The leaderboard's column name of a CRMArena task; other suites' tasks by their first word."""
    return ABBREVIATIONS.get(task) or task.split("_")[0].upper()


def _bars(results: Results) -> str:
    scores, counts = results.scores, results.counts
    none = results.baselines["always_none"]
    rows = []
    for task, score in scores.items():
        rows.append(
            f'<tr class="task-bar" data-task="{_e(task)}" data-score="{score:.2f}">'
            f'<th><a href="#task-{_e(task)}">{_e(task)}</a> <abbr>{_e(_abbreviation(task))}</abbr></th>'
            f'<td class="num">{counts[task]:,}</td>'
            f'<td class="track"><div class="bar" style="width:{score:.2f}%"></div></td>'
            f'<td class="num score">{score:.1f}</td>'
            f'<td class="num baseline">{_baseline(none["scores"].get(task))}</td></tr>'
        )
    return (
        '<section id="scores"><h2>Scores by task</h2>'
        '<table class="bars"><thead><tr><th>task</th><th class="num">episodes</th>'
        '<th class="track">score (0–100)</th><th class="num">score</th>'
        '<th class="num" title="an agent answering None to every question, on the same episodes">'
        "always None</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody>"
        f'<tfoot><tr><th>overall</th><td class="num">{sum(counts.values()):,}</td>'
        f'<td class="track"><div class="bar total" style="width:{results.overall:.2f}%"></div></td>'
        f'<td class="num score">{results.overall:.1f}</td>'
        f'<td class="num baseline">{none["overall"]:.1f}</td></tr></tfoot></table>'
        '<p class="note">always None: the score of an agent that answers None to every question of '
        "these episodes; part of every task's answers are None by design, so a run below it has "
        "learnt nothing.</p></section>"
    )


def _baseline(score: float | None) -> str:
    """The always-None score, or "-" for a task it does not apply to (privacy_rejection)."""
    return "-" if score is None else f"{score:.1f}"


def _turns(results: Results, others: list[Results]) -> str:
    """Single- and multi-turn side by side (when given one of each), then end reasons, user tokens, pass^k."""
    from crmarena_sf.tasks.turns_table import multi_turn_html, side_by_side_html, turn_pair

    pair = turn_pair([results, *others])
    return (side_by_side_html(*pair) if pair else "") + multi_turn_html(results)


def _pro_skills(results: Results, others: list[Results]) -> str:
    """A Pro run's per-skill table, with the other org's run beside it when given."""
    from crmarena_sf.tasks.pro.tables import run_suite, skill_html
    from crmarena_sf.tasks.turns_table import turn_pair

    if run_suite(results) is None or turn_pair([results, *others]):
        return ""
    return skill_html([results, *others])


def _leaderboard(results: Results, who: str) -> str:
    from crmarena_sf.tasks.pro.tables import run_suite

    if run_suite(results) is not None:  # CRMArena's leaderboard was measured on its own org and tasks
        return (
            '<section id="leaderboard"><h2>Published CRMArena leaderboard</h2><p class="note">The published '
            "leaderboard was measured on CRMArena's own org; this is a CRMArena-Pro run, so it is not shown.</p>"
            "</section>"
        )
    if not any(task in ABBREVIATIONS for task in results.scores):
        return (
            '<section id="leaderboard"><h2>Published CRMArena leaderboard</h2><p class="note">The published '
            "leaderboard covers CRMArena's nine tasks; this run has none of them, so it is not shown.</p></section>"
        )
    head = "".join(f'<th class="num" title="{_e(task)}">{_e(abbr)}</th>' for abbr, task in COLUMNS)
    scores = results.scores
    cells = "".join(
        _score_cell(scores[task]) if task in scores else '<td class="num missing">–</td>'
        for _, task in COLUMNS
    )
    partial = "" if len(scores) == len(COLUMNS) else f" (mean of the {len(scores)} tasks run)"
    none = results.baselines["always_none"]
    none_cells = "".join(
        _score_cell(none["scores"][task]) if task in none["scores"] else '<td class="num missing">–</td>'
        for _, task in COLUMNS
    )
    rows = [
        f'<tbody class="this-run"><tr><th>this run</th><th>{_e(who)}</th>{cells}'
        f'<td class="num overall">{results.overall:.1f}{_e(partial)}</td></tr>'
        f'<tr class="baseline"><th>baseline</th><th>always None (same episodes)</th>{none_cells}'
        f'<td class="num overall">{none["overall"]:.1f}</td></tr></tbody>'
    ]
    for framework in FRAMEWORKS:
        body = []
        for row in (r for r in ROWS if r.framework == framework):
            body.append(
                f'<tr class="published" data-framework="{_e(framework)}"><td>{_e(framework)}</td>'
                f"<td>{_e(row.model)}</td>"
                + "".join(_score_cell(row.scores[task]) for _, task in COLUMNS)
                + f'<td class="num overall">{row.overall:.1f}</td></tr>'
            )
        rows.append(f"<tbody>{''.join(body)}</tbody>")
    names = ", ".join(f"{abbr} = {task}" for abbr, task in COLUMNS)
    return (
        '<section id="leaderboard"><h2>Beside the published CRMArena leaderboard</h2>'
        '<p class="note"><strong>The published rows were measured on the original CRMArena org</strong> '
        "(the authors' live Salesforce org and its task file), not on the org this run used: the "
        "questions and data differ, so read the comparison as one of kind, not number for number.</p>"
        '<div class="scroll"><table class="leaderboard"><caption>Published CRMArena leaderboard v1 '
        f"({_e(PAPER)}), original CRMArena org; first row: this run</caption>"
        f'<thead><tr><th>framework</th><th>model</th>{head}<th class="num">Overall</th></tr></thead>'
        f"{''.join(rows)}</table></div>"
        f'<p class="source">Columns: {_e(names)}. Source: {_e(SOURCE)}; {_e(PAPER)}.</p></section>'
    )


def _score_cell(score: float) -> str:
    return f'<td class="num" style="background:rgba(46,125,50,{score / 100 * 0.55:.2f})">{score:.1f}</td>'


def _settings(settings: dict[str, Any]) -> str:
    rows = "".join(
        f"<tr><th>{_e(key)}</th><td>{_e(_as_text(value))}</td></tr>"
        for key, value in settings.items()
        if value
        is not None  # a setting that does not apply (no limit, no base URL), as results.json leaves it out
    )
    body = (
        f'<table class="settings"><tbody>{rows}</tbody></table>' if rows else "<p>No settings recorded.</p>"
    )
    return f'<section id="settings"><h2>Settings</h2>{body}</section>'


def _usage(results: Results, data: dict[str, Any], pairs: list[tuple[EpisodeResult, Any]]) -> str:
    """Token usage and turns: the file's top-level usage when it has one, else summed over episodes."""
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    by_task: dict[str, dict[str, float]] = {}
    top_by_task = usage.get("by_task") if isinstance(usage.get("by_task"), dict) else {}
    for task, tokens in top_by_task.items():
        if task in ALL_FAMILIES and isinstance(tokens, dict):
            by_task[task] = {k: _number(tokens.get(k)) or 0 for k in ("prompt_tokens", "completion_tokens")}
    turns: dict[str, list[float]] = {}
    for episode, raw in pairs:
        raw = raw if isinstance(raw, dict) else {}
        if _number(raw.get("turns")) is not None:
            turns.setdefault(episode.task, []).append(_number(raw["turns"]))
        if not top_by_task and isinstance(raw.get("usage"), dict):
            sums = by_task.setdefault(episode.task, {"prompt_tokens": 0, "completion_tokens": 0})
            for key in sums:
                sums[key] += _number(raw["usage"].get(key)) or 0
    totals = {
        key: _number(usage.get(key))
        if _number(usage.get(key)) is not None
        else sum(t[key] for t in by_task.values())
        for key in ("prompt_tokens", "completion_tokens")
    }
    if not by_task and not turns and not any(totals.values()):
        return (
            '<section id="usage"><h2>Token usage</h2><p class="usage-none">This run recorded no token usage '
            "(its agent called no model).</p></section>"
        )
    counts = results.counts
    rows = []
    for task in (t for t in ALL_FAMILIES if t in counts):
        tokens = by_task.get(task)
        cells = (
            f'<td class="num">{_int(tokens["prompt_tokens"])}</td><td class="num">{_int(tokens["completion_tokens"])}</td>'
            f'<td class="num">{_int(tokens["prompt_tokens"] + tokens["completion_tokens"])}</td>'
            f'<td class="num">{_int((tokens["prompt_tokens"] + tokens["completion_tokens"]) / counts[task])}</td>'
            if tokens
            else '<td class="num missing">–</td>' * 4
        )
        mean_turns = f"{sum(turns[task]) / len(turns[task]):.1f}" if task in turns else "–"
        rows.append(
            f'<tr data-task="{_e(task)}"><th>{_e(task)}</th><td class="num">{counts[task]:,}</td>{cells}'
            f'<td class="num">{mean_turns}</td></tr>'
        )
    all_turns = [t for values in turns.values() for t in values]
    total_tokens = totals["prompt_tokens"] + totals["completion_tokens"]
    episodes = sum(counts.values())
    foot = (
        f'<tr><th>all tasks</th><td class="num">{episodes:,}</td>'
        f'<td class="num">{_int(totals["prompt_tokens"])}</td><td class="num">{_int(totals["completion_tokens"])}</td>'
        f'<td class="num">{_int(total_tokens)}</td><td class="num">{_int(total_tokens / episodes)}</td>'
        f'<td class="num">{f"{sum(all_turns) / len(all_turns):.1f}" if all_turns else "–"}</td></tr>'
    )
    return (
        '<section id="usage"><h2>Token usage</h2><table class="usage"><thead><tr><th>task</th>'
        '<th class="num">episodes</th><th class="num">prompt tokens</th><th class="num">completion tokens</th>'
        '<th class="num">total tokens</th><th class="num">tokens per episode</th><th class="num">mean turns</th>'
        f"</tr></thead><tbody>{''.join(rows)}</tbody><tfoot>{foot}</tfoot></table></section>"
    )


def _pairs(results: Results, data: dict[str, Any]) -> list[tuple[EpisodeResult, Any]]:
    """Each episode with its raw results.json object (its trajectory, usage ...)."""
    raw_episodes = data.get("episodes") or [{} for _ in results.episodes]
    return list(zip(results.episodes, raw_episodes))


def _episodes(results: Results, pairs: list[tuple[EpisodeResult, Any]], run: int | None = None) -> str:
    """The episodes of one run; ``run`` numbers it on a page of several runs (ids stay unique)."""
    suffix = "" if run is None else f"-{run}"
    title = "Episodes"
    if run is not None:
        suite = results.settings.get("suite")
        title += f": {_run_name(results.settings)}" + (f", {_as_text(suite)}" if suite else "")
    order = {task: n for n, task in enumerate(ALL_FAMILIES)}
    pairs = sorted(pairs, key=lambda p: (order[p[0].task], p[0].idx, p[0].trial))
    scores, counts = results.scores, results.counts
    sections = []
    present = {e.task for e, _ in pairs}
    for task in (t for t in ALL_FAMILIES if t in present):
        items = "".join(
            _episode(e, raw, "" if run is None else f"r{run}-") for e, raw in pairs if e.task == task
        )
        score = f"score {scores[task]:.1f}" if task in scores else "not scored"
        sections.append(
            f'<section class="task" id="task-{_e(task)}{suffix}"><h3>{_e(task)} '
            f'<span class="muted">{counts.get(task, 0):,} episodes, {score}</span></h3>{items}</section>'
        )
    return (
        f'<section id="episodes{suffix}"><h2>{_e(title)}</h2><p class="note">Each line: idx, task, reward, answer, gold '
        "answer, error. Click one for its question and trajectory (long fields are clipped here; "
        "results.json has them whole).</p>" + "".join(sections) + "</section>"
    )


def _episode(episode: EpisodeResult, raw: Any, anchor: str = "") -> str:
    """One episode's line and trajectory; ``anchor`` prefixes its id on a page of several runs."""
    raw = raw if isinstance(raw, dict) else {}
    outcome = (
        "error"
        if episode.error or not episode.scored
        else "pass"
        if episode.reward == 1
        else "partial"
        if episode.reward
        else "fail"
    )
    error = f'<span class="error-flag">{_e(_short(episode.error))}</span>' if episode.error else ""
    trial = f" trial {episode.trial + 1}" if episode.trial else ""
    summary = (
        f'<summary><span class="idx">#{episode.idx}{_e(trial)}</span>'
        f'<span class="abbr">{_e(_abbreviation(episode.task))}</span>'
        f'<span class="reward {outcome}">{_reward(episode.reward)}</span>'
        f'<span class="answer">{_e(_short(_answer(episode.answer)))}</span>'
        f'<span class="gold">gold: {_e(_short(_answer(episode.gold)))}</span>{error}</summary>'
    )
    facts = [("task", episode.task)]
    if episode.question is not None:
        facts.append(("question", episode.question))
    facts += [
        ("answer", _answer(episode.answer)),
        ("gold", _answer(episode.gold)),
        ("reward", _reward(episode.reward)),
    ]
    if episode.error:
        facts.append(("error", episode.error))
    if not episode.scored:
        cause = UNSCORED_CAUSES.get(episode.cause or "emulator", episode.cause)
        facts.append(("scored", f"no: {cause}, a failure outside the agent, left out of every score"))
    if episode.end_reason:
        facts.append(("ended by", episode.end_reason.replace("_", " ")))
    if "turns" in raw:
        facts.append(("turns", _as_text(raw["turns"])))
    if isinstance(raw.get("usage"), dict):
        facts.append(("tokens", ", ".join(f"{k} {_count(v)}" for k, v in raw["usage"].items())))
    if episode.user_usage:
        facts.append(("user tokens", ", ".join(f"{k} {_count(v)}" for k, v in episode.user_usage.items())))
    facts_html = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in facts)
    budget = [EPISODE_CHARS]
    steps = "".join(_step(step, budget) for step in episode.trajectory)
    trajectory = (
        f'<ol class="steps">{steps}</ol>' if steps else '<p class="muted">No trajectory recorded.</p>'
    )
    return (
        f'<details class="episode {outcome}" id="{anchor}ep-{episode.idx}{"-" + str(episode.trial) if episode.trial else ""}">{summary}'
        f'<div class="body"><dl>{facts_html}</dl>{trajectory}</div></details>'
    )


def _step(step: Any, budget: list[int]) -> str:
    """One trajectory step: its action as a label, every other field as escaped preformatted text.

    ``budget`` holds the characters the episode's remaining fields may show; this step spends it.
    """
    if isinstance(step, dict):
        action = "step" if step.get("action") is None else _as_text(step["action"])
        fields = [(str(k), v) for k, v in step.items() if k != "action"]
    else:
        action, fields = "step", [("value", step)]
    css = _CLASS_UNSAFE.sub("", action.lower())[:20]
    lines = []
    for key, value in fields:
        text = _clip(_as_text(value), max(FIELD_FLOOR_CHARS, min(MAX_FIELD_CHARS, budget[0])))
        budget[0] -= len(text)
        lines.append(f"{key}:\n{text}" if "\n" in text else f"{key}: {text}")
    body = f"<pre>{_e(chr(10).join(lines))}</pre>" if lines else ""
    return f'<li class="step"><span class="action act-{css}">{_e(action)}</span>{body}</li>'


def _run_name(settings: dict[str, Any]) -> str:
    agent = _as_text(settings.get("agent", "unknown agent"))
    model = settings.get("model")
    return f"{agent} ({_as_text(model)})" if model else agent


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _answer(value: str | None) -> str:
    return "None" if value is None else value


def _reward(value: float) -> str:
    return str(int(value)) if value in (0, 1) else f"{value:.2f}"


def _number(value: Any) -> float | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def _count(value: Any) -> str:
    """A token count with thousands separators; anything else as its JSON text."""
    return _int(value) if _number(value) is not None else _as_text(value)


def _int(value: float) -> str:
    return f"{round(value):,}"


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 1] + "…"


def _clip(text: str, limit: int) -> str:
    if len(text) <= limit + CLIP_SLACK_CHARS:  # clipping a few characters would save nothing
        return text
    return f"{text[:limit]} … (+{len(text) - limit:,} characters)"


def _e(value: Any) -> str:
    """Text made safe for HTML text and double-quoted attributes: control characters and lone
    surrogates replaced; ``&``, ``<``, ``>`` and ``"`` escaped (``'`` needs no escaping there, and
    Python reprs in tool output are full of it)."""
    return html.escape(_UNPRINTABLE.sub("\ufffd", str(value)), quote=False).replace('"', "&quot;")
