"""``crmarena-sf report``: the table run printed, one-line errors for bad input, and a self-contained,
well-formed HTML page that escapes everything the results file holds."""

from __future__ import annotations

import contextlib
import html
import io
import json
import os
import re
from html.parser import HTMLParser

import pytest
from crmarena_sf.loaders.generate import generate
from crmarena_sf.tasks.families import FAMILIES
from crmarena_sf.tasks.leaderboard import ABBREVIATIONS, COLUMNS, FRAMEWORKS, ROWS
from crmarena_sf.tasks.report import render_html, write_html
from crmarena_sf.tasks.results import EpisodeResult, Results, ResultsFileError, read_results

from crmarena_sf.cli.main import main

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
HOSTILE = '<script>alert("x")</script>'


class StrictPage(HTMLParser):
    """Parses a page, failing on any tag left open, closed out of order or closed twice;
    collects tags, attributes and text so tests can look at what a browser would see."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.declarations: list[str] = []
        self.feed(page)
        self.close()
        assert not self.stack, f"tags left open: {self.stack}"

    def handle_decl(self, decl: str) -> None:
        self.declarations.append(decl)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        assert tag in VOID, f"<{tag}/> is not a void element"
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        assert tag not in VOID, f"</{tag}> closes a void element"
        assert self.stack and self.stack[-1] == tag, (
            f"</{tag}> closes <{self.stack[-1] if self.stack else None}>"
        )
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)

    def find(self, tag: str, **attrs: str) -> list[dict[str, str | None]]:
        """Attributes of every ``tag`` whose attributes include ``attrs`` (class matches one class)."""
        found = []
        for name, have in self.tags:
            if name != tag:
                continue
            if all(
                (v in (have.get("class") or "").split()) if k == "class_" else have.get(k) == v
                for k, v in attrs.items()
            ):
                found.append(have)
        return found


def assert_self_contained(page: str, parsed: StrictPage) -> None:
    """Nothing the page loads or links leaves it: no script, no external src/href, no @import or url()."""
    assert parsed.declarations == ["DOCTYPE html"]
    assert not parsed.find("script") and not parsed.find("link") and not parsed.find("iframe")
    for _tag, attrs in parsed.tags:
        for name in ("src", "href", "action", "srcset", "poster"):
            value = attrs.get(name)
            assert value is None or value.startswith("#"), f"{name}={value!r} leaves the page"
        assert not any(name.startswith("on") for name in attrs), attrs
    style = "".join(re.findall(r"<style>(.*?)</style>", page, flags=re.S))
    assert "@import" not in style and "url(" not in style and "@font-face" not in style


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    return generate(tmp_path_factory.mktemp("report") / "ds", profile="tiny", seed=0)


@pytest.fixture(scope="module")
def reference_run(dataset, tmp_path_factory):
    """A reference-agent results.json (2 episodes per task) and what ``run`` printed."""
    out = tmp_path_factory.mktemp("run") / "results.json"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        args = ["run", "--agent", "reference", "--org", str(dataset), "--per-task", "2", "--quiet"]
        assert main([*args, "--out", str(out)]) == 0
    return out, printed.getvalue()


def llm_results() -> dict:
    """A results.json as an LLM agent writes one: usage, turns, errors, and text no page should trust."""
    episodes = []
    for n, task in enumerate(FAMILIES):
        for k in range(2):
            idx = 2 * n + k
            episode = {
                "idx": idx,
                "task": task,
                "answer": f"{HOSTILE} answer {idx}" if k == 0 else "005Wk000000001",
                "gold": "005Wk000000001",
                "reward": 0.0 if k == 0 else 1.0,
                "turns": 3 + k,
                "usage": {"prompt_tokens": 1000 + idx, "completion_tokens": 100 + idx},
                "trajectory": [
                    {"action": "model", "content": f"<thought>find the agent</thought>{HOSTILE}"},
                    {
                        "action": "tool",
                        "name": "get_cases",
                        "arguments": {"start_date": "2021-01-01T00:00:00Z", "note": "</pre><img src=x>"},
                        "observation": "x" * 5000,
                    },
                    {
                        "action": "<b onclick=alert(1)>new kind</b>",
                        "detail": "a step kind the report never saw",
                    },
                    {"content": "no action key", "control": "bell\x07 and nul\x00"},
                    "not even an object",
                    {
                        "action": "respond",
                        "content": f"{HOSTILE} answer {idx}" if k == 0 else "005Wk000000001",
                    },
                ],
            }
            if idx == 5:
                episode["error"] = f"APIError: upstream said {HOSTILE}"
                episode["answer"] = None
                episode["reward"] = 0.0
                episode["trajectory"] = []
            episodes.append(episode)
    return {
        "overall": 50.0,
        "scores": {task: 50.0 for task in FAMILIES},
        "counts": {task: 2 for task in FAMILIES},
        "settings": {
            "agent": "fc",
            "model": f"gpt-4o {HOSTILE}",
            "base_url": "https://api.example.com/v1",
            "backend": "emulator",
            "tasks": 18,
        },
        "usage": {
            "prompt_tokens": 1234567,
            "completion_tokens": 76543,
            "by_task": {
                task: {"prompt_tokens": 111111 + n, "completion_tokens": 2222}
                for n, task in enumerate(FAMILIES)
            },
        },
        "episodes": episodes,
    }


def write_json(path, data) -> str:
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


# --- the CLI ---------------------------------------------------------------------------------


def test_report_prints_the_table_run_printed(reference_run, capsys):
    path, printed_by_run = reference_run
    assert main(["report", str(path)]) == 0
    out = capsys.readouterr().out
    table = printed_by_run.split("results:")[0]
    assert out == table and "overall" in out and len(out.splitlines()) == len(FAMILIES) + 2


def test_report_with_html_writes_the_page_and_says_where(reference_run, tmp_path, capsys):
    page = tmp_path / "report.html"
    assert main(["report", str(reference_run[0]), "--html", str(page)]) == 0
    out = capsys.readouterr().out
    assert out.endswith(f"report: {page}\n") and "overall" in out
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert sorted(os.listdir(tmp_path)) == ["report.html"]  # no temporary file left behind


def test_the_table_counts_failed_episodes(tmp_path, capsys):
    assert main(["report", write_json(tmp_path / "r.json", llm_results())]) == 0
    out = capsys.readouterr().out
    assert "(1 episode failed with an error; see results.json)" in out
    assert re.search(
        r"^top_issue_identification\s+2\s+0\.0\s+\d+\.\d$", out, flags=re.M
    )  # its one pass failed
    assert re.search(r"^overall\s+18\s+44\.4\s+\d+\.\d$", out, flags=re.M)


BAD_INPUT = [
    (None, "results.json: no such results file"),
    (
        "{not json",
        "results.json line 1: not JSON (Expecting property name enclosed in double quotes: column 2)",
    ),
    ('[{"idx": 0}]', "not a results file: expected a JSON object with 'settings' and 'episodes', got a list"),
    ('{"overall": 1, "settings": {}}', "not a results file: missing 'episodes'"),
    ('{"scores": {}}', "not a results file: missing 'settings' and 'episodes'"),
    ('{"settings": {}, "episodes": []}', "no episodes"),
    ('{"settings": {}, "episodes": [{"idx": 0, "task": "knowledge_qa"}]}', "episode 1: missing 'reward'"),
    (
        '{"settings": {}, "episodes": [{"idx": 0, "task": "forecast", "reward": 1}]}',
        "episode 1: unknown task 'forecast'",
    ),
    ('{"settings": {}, "episodes": [{"idx": 0, "task": "knowledge_qa", "reward": 7}]}', "from 0 to 1, not 7"),
    (
        '{"settings": {}, "episodes": [{"idx": 1, "task": "handle_time", "reward": 1},'
        ' {"idx": 1, "task": "handle_time", "reward": 0}]}',
        "idx 1 appears twice",
    ),
    (
        '{"idx": 0, "task": "knowledge_qa"}\n{"idx": 1, "task": "knowledge_qa"}\n',
        "results.json line 2: not JSON (Extra data: column 1)",
    ),
]


@pytest.mark.parametrize(("content", "message"), BAD_INPUT)
def test_bad_results_files_end_with_one_line_and_exit_2(tmp_path, capsys, content, message):
    path = tmp_path / "results.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["report", str(path), "--html", str(tmp_path / "report.html")]) == 2
    captured = capsys.readouterr()
    assert message in captured.err, captured.err
    assert len(captured.err.strip().splitlines()) == 1 and "Traceback" not in captured.err
    assert captured.out == "" and not (tmp_path / "report.html").exists()


def test_a_directory_stands_for_its_results_json_and_one_without_is_refused(tmp_path, capsys):
    assert main(["report", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"crmarena-sf: {tmp_path}: a directory without a results.json (no episode answered yet?)"
    )


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (".", "is a directory; name a file, such as {path}/report.html"),
        ("a-file/report.html", "{tmp}/a-file is a file, not a directory"),
    ],
)
def test_an_unwritable_html_path_ends_with_one_line_and_exit_2(
    reference_run, tmp_path, capsys, target, message
):
    (tmp_path / "a-file").write_text("")
    html_path = tmp_path / target
    assert main(["report", str(reference_run[0]), "--html", str(html_path)]) == 2
    err = capsys.readouterr()
    assert err.err == f"crmarena-sf: --html {html_path}: {message.format(path=html_path, tmp=tmp_path)}\n"
    assert err.out == "" and os.listdir(tmp_path) == ["a-file"]  # refused before any work


def test_the_html_page_gets_the_directories_it_names(reference_run, tmp_path):
    assert main(["report", str(reference_run[0]), "--html", str(tmp_path / "new" / "report.html")]) == 0
    assert (tmp_path / "new" / "report.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_the_page_is_replaced_atomically(reference_run, tmp_path, monkeypatch):
    """A write that fails at the last step leaves the old page as it was and no temporary file."""
    results, data = read_results(reference_run[0])
    page = tmp_path / "report.html"
    page.write_text("the old page", encoding="utf-8")

    def refuse(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="No space left"):
        write_html(results, data, page)
    assert page.read_text(encoding="utf-8") == "the old page" and os.listdir(tmp_path) == ["report.html"]
    monkeypatch.undo()
    write_html(results, data, page)
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


# --- reading results back --------------------------------------------------------------------


def test_results_read_back_score_and_serialize_as_written(reference_run, tmp_path):
    results, data = read_results(reference_run[0])
    assert results.to_json() == data
    mixed = Results(
        {"agent": "x"},
        [
            EpisodeResult(3, "knowledge_qa", "a b", "a b c", 0.8, [{"action": "respond", "content": "a b"}]),
            EpisodeResult(1, "case_routing", None, "005", 0.0, [], "TimeoutError: slow"),
        ],
    )
    again = Results.from_json(json.loads(json.dumps(mixed.to_json())))
    assert again.to_json() == mixed.to_json() and again.table() == mixed.table()


def test_non_text_answers_are_read_as_their_json_text():
    data = {"settings": {}, "episodes": [{"idx": 0, "task": "handle_time", "reward": 0, "answer": 12}]}
    assert Results.from_json(data).episodes[0].answer == "12"
    with pytest.raises(ResultsFileError, match="idx must be a whole number, not '0'"):
        Results.from_json({"settings": {}, "episodes": [{"idx": "0", "task": "handle_time", "reward": 0}]})


# --- the page --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def reference_page(reference_run):
    results, data = read_results(reference_run[0])
    page = render_html(results, data)
    return page, StrictPage(page), data


def test_the_reference_page_is_well_formed_and_self_contained(reference_page):
    page, parsed, _ = reference_page
    assert_self_contained(page, parsed)
    assert parsed.find("meta", charset="utf-8") and parsed.find("title")


def test_the_page_has_a_bar_for_each_task(reference_page):
    _, parsed, data = reference_page
    rows = parsed.find("tr", class_="task-bar")
    assert [r["data-task"] for r in rows] == list(FAMILIES)
    assert all(r["data-score"] == "100.00" for r in rows)
    bars = parsed.find("div", class_="bar")
    assert len(bars) == len(FAMILIES) + 1 and all(b["style"] == "width:100.00%" for b in bars)


def test_a_bar_is_as_long_as_its_score(tmp_path):
    results = Results.from_json(llm_results())
    parsed = StrictPage(render_html(results, llm_results()))
    widths = [b["style"] for b in parsed.find("div", class_="bar")]
    assert widths == [f"width:{results.scores[t]:.2f}%" for t in FAMILIES] + ["width:44.44%"]
    assert results.scores["top_issue_identification"] == 0.0


def test_the_page_sets_the_run_beside_the_published_leaderboard(reference_page):
    page, parsed, _ = reference_page
    published = parsed.find("tr", class_="published")
    assert len(published) == len(ROWS) == 18
    assert [r["data-framework"] for r in published] == [f for f in FRAMEWORKS for _ in range(6)]
    text = " ".join(" ".join(parsed.text).split())
    assert "The published rows were measured on the original CRMArena org" in text
    assert (
        "Published CRMArena leaderboard v1 (arXiv 2411.02305v1 (November 2024)), original CRMArena org"
        in text
    )
    assert "huggingface.co/spaces/Salesforce/CRMArena-Leaderboard" in text  # cited as text, not linked
    header = re.search(r"<th>framework</th><th>model</th>(.*?)</tr>", page).group(1)
    assert re.findall(r">([A-Z]{3}|Overall)<", header) == [a for a, _ in COLUMNS] + ["Overall"]
    gpt4o_fc = re.search(r"<td>Function calling</td><td>gpt-4o</td>(.*?)</tr>", page).group(1)
    assert re.findall(r">(\d+\.\d)<", gpt4o_fc) == [
        "60.0", "47.7", "81.5", "46.2", "39.2", "30.4", "97.7", "27.7", "59.2", "54.4"
    ]  # fmt: skip


def test_the_reference_page_has_one_details_per_episode_with_its_steps(reference_page):
    page, parsed, data = reference_page
    details = parsed.find("details", class_="episode")
    assert [d["id"] for d in details] == [f"ep-{e['idx']}" for e in data["episodes"]]
    assert len(parsed.find("li", class_="step")) == sum(len(e["trajectory"]) for e in data["episodes"])
    text = "".join(parsed.text)
    for episode in data["episodes"]:
        for step in episode["trajectory"]:
            if step["action"] in ("soql", "sosl"):
                assert f"query: {step['query']}" in text
    assert "This run recorded no token usage" in text
    for _, task in COLUMNS:
        assert parsed.find("section", id=f"task-{task}") and parsed.find("a", href=f"#task-{task}")


def test_the_page_shows_each_question_the_always_none_baseline_and_no_null_setting(reference_page):
    """Issue 25: what an episode asked, and what answering None to everything would have scored."""
    page, parsed, data = reference_page
    text = "".join(parsed.text)
    assert all(html.escape(e["question"], quote=False) in page for e in data["episodes"])
    assert all(e["question"] in text for e in data["episodes"])
    none = data["baselines"]["always_none"]
    assert re.findall(r'<td class="num baseline">([\d.]+)</td>', page) == [
        f"{none['scores'][task]:.1f}" for task in data["scores"]
    ] + [f"{none['overall']:.1f}"]
    row = re.search(
        r'<tr class="baseline"><th>baseline</th><th>always None \(same episodes\)</th>(.*?)</tr>', page
    )
    assert re.findall(r">(\d+\.\d)<", row.group(1))[-1] == f"{none['overall']:.1f}"
    settings = re.search(r'<section id="settings">(.*?)</section>', page).group(1)
    assert "null" not in settings and "None" not in settings and "<th>limit</th>" not in settings


@pytest.fixture(scope="module")
def llm_page():
    data = llm_results()
    page = render_html(Results.from_json(data), data)
    return page, StrictPage(page)


def test_a_hostile_results_file_gives_a_well_formed_page_with_everything_escaped(llm_page):
    page, parsed = llm_page
    assert_self_contained(page, parsed)
    assert "<script" not in page and "<img" not in page and "<b " not in page and "<thought>" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    text = "".join(parsed.text)
    assert f"{HOSTILE} answer 0" in text  # the answer, shown as text
    assert f"CRMArena results: fc (gpt-4o {HOSTILE})" in text
    assert "\x00" not in page and "\x07" not in page and "bell\ufffd and nul\ufffd" in text
    assert "https://api.example.com/v1" in text


def test_every_step_kind_is_drawn_generically(llm_page):
    page, parsed = llm_page
    assert len(parsed.find("details", class_="episode")) == 18
    assert len(parsed.find("li", class_="step")) == 17 * 6
    labels = [" ".join(m.split()) for m in re.findall(r'<span class="action[^"]*">(.*?)</span>', page)]
    assert labels[:6] == [
        "model",
        "tool",
        "&lt;b onclick=alert(1)&gt;new kind&lt;/b&gt;",
        "step",
        "step",
        "respond",
    ]
    text = "".join(parsed.text)
    assert 'arguments: {"start_date": "2021-01-01T00:00:00Z", "note": "</pre><img src=x>"}' in text
    assert "value: not even an object" in text and "detail: a step kind the report never saw" in text
    assert "x" * 600 + " … (+4,400 characters)" in text  # a 5,000-character observation, clipped


def test_usage_turns_and_errors_are_shown(llm_page):
    page, parsed = llm_page
    text = " ".join(parsed.text)
    for number in ("1,234,567", "76,543", "1,311,110", "111,111", "111,119", "2,222"):
        assert number in text, number
    usage_rows = {r["data-task"] for r in parsed.find("tr") if r.get("data-task") and "class" not in r}
    assert usage_rows == set(FAMILIES)
    assert "3.5" in re.search(r"<tfoot><tr><th>all tasks</th>(.*?)</tr>", page).group(1)  # mean turns
    assert parsed.find("details", id="ep-5", class_="error")
    assert "prompt_tokens 1,005, completion_tokens 105" in text
    assert "APIError: upstream said &lt;script&gt;" in page
    assert "1 episode failed with an error" in text


def test_usage_is_summed_from_episodes_when_the_file_has_no_total():
    data = llm_results()
    del data["usage"]
    text = " ".join(StrictPage(render_html(Results.from_json(data), data)).text)
    prompt = sum(e["usage"]["prompt_tokens"] for e in data["episodes"])
    assert f"{prompt:,}" in text and "no token usage" not in text


def test_a_full_size_llm_run_gives_a_page_of_a_few_mb():
    """1,170 episodes of 20 steps with 20 KB tool observations: the clipping keeps the page small."""
    data = llm_results()
    template = data["episodes"][0]
    data["episodes"] = []
    for idx in range(1170):
        steps = []
        for turn in range(10):
            steps.append({"action": "model", "content": f"turn {turn}: " + "reasoning " * 60})
            steps.append({"action": "tool", "name": "get_cases", "observation": "{'Id': '500...'} " * 1200})
        task = list(FAMILIES)[idx // 130]
        data["episodes"].append({**template, "idx": idx, "task": task, "trajectory": steps})
    page = render_html(Results.from_json(data), data)
    assert page.count('<details class="episode') == 1170
    assert len(page.encode("utf-8")) < 7_000_000


# --- the leaderboard data --------------------------------------------------------------------


def test_the_leaderboard_rows_are_consistent():
    """Six models under each framework, nine task scores each, Overall their mean up to the rounding
    of the published figures (so a mistyped cell shows up)."""
    assert [abbr for abbr, _ in COLUMNS] == ["NCR", "HTU", "TCU", "NED", "PVI", "KQA", "TII", "MTA", "BRI"]
    assert set(ABBREVIATIONS) == set(FAMILIES)
    for framework in FRAMEWORKS:
        assert len([r for r in ROWS if r.framework == framework]) == 6
    for row in ROWS:
        assert list(row.scores) == [task for _, task in COLUMNS]
        assert abs(sum(row.scores.values()) / 9 - row.overall) < 0.1, row
    best = max(ROWS, key=lambda r: r.overall)
    assert (best.framework, best.model, best.overall) == ("Function calling", "gpt-4o", 54.4)
