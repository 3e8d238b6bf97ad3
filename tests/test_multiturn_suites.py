"""The interactive suites offline: the scripted user reveals one criterion per question, the interactive
reference agent scores 100 on every interactive suite, --trials with pass^k, and a killed run resumes."""

from __future__ import annotations

import json
import re

import pytest
from crmarena_sf.tasks.build import build_tasks
from crmarena_sf.tasks.episode import STOP
from crmarena_sf.tasks.episode_log import log_path
from crmarena_sf.tasks.pass_k import pass_hat_k, pass_k
from crmarena_sf.tasks.results import EpisodeResult
from crmarena_sf.tasks.users.criteria import criteria_for, held_keys
from crmarena_sf.tasks.users.scripted import DONT_KNOW, ScriptedUser

import crmarena_sf
from crmarena_sf.cli.main import main


@pytest.fixture(scope="module")
def tasks(tiny_dataset):
    return build_tasks(crmarena_sf.connect(org=str(tiny_dataset)), per_task=2).records


def _says(text, value):
    """``value`` as a word of ``text`` (a threshold of 2 is not said by a date of 2020)."""
    return re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", text) is not None


def _values(task, keys):
    return [str(task.params[k]) for k in keys]


def test_the_scripted_user_gives_one_criterion_per_question_and_never_the_whole_instruction(tasks):
    for task in tasks:
        user = ScriptedUser(task)
        criteria = criteria_for(task.task, task.params)
        held = held_keys(task.task, task.params)
        opening = user.opening()
        assert opening != task.query and not any(_says(opening, v) for v in _values(task, held)), task.task
        # One question asking for everything at once still gets one criterion, the first not yet given.
        everything = " ".join(c.question.rstrip("?") for c in criteria) + "?"
        for n, criterion in enumerate(criteria):
            reply = user.reply(everything)
            assert reply == criterion.say(task.params), (task.task, reply)
            others = [k for c in criteria if c is not criterion for k in c.keys]
            mine = set(_values(task, criterion.keys))
            assert not any(_says(reply, v) for v in _values(task, others) if v not in mine), (
                task.task,
                reply,
            )
            assert user.given == [c.name for c in criteria[: n + 1]]
        assert user.reply("What is your favourite colour?") == DONT_KNOW
        assert STOP in user.reply("The answer is 42.")


def test_the_user_holds_only_what_its_question_says(tasks):
    routing = next(t for t in tasks if t.task == "case_routing")
    kqa = next(t for t in tasks if t.task == "knowledge_qa")
    assert held_keys("case_routing", routing.params) == ["case_id"]  # the issue and product follow from it
    assert held_keys("knowledge_qa", kqa.params) == ["question"]  # not the article that answers it
    assert ScriptedUser(kqa).reply("Which article Id should I read?") == DONT_KNOW


def _run(tmp_path, *args, name="results.json"):
    out = tmp_path / name
    code = main(["run", "--agent", "reference", "--out", str(out), "--quiet", *args])
    return code, out


def test_the_interactive_reference_agent_scores_100_on_crmarena_interactive(tiny_dataset, tmp_path, capsys):
    code, out = _run(
        tmp_path, "--suite", "crmarena-interactive", "--org", str(tiny_dataset), "--per-task", "2"
    )
    assert code == 0, capsys.readouterr()
    data = json.loads(out.read_text())
    assert data["overall"] == 100.0 and set(data["scores"].values()) == {100.0}
    assert data["settings"]["suite"] == "crmarena-interactive" and data["settings"]["user"] == "scripted"
    assert data["end_reasons"] == {"user_stop": len(data["episodes"])}
    for episode in data["episodes"]:
        said = [s["content"] for s in episode["trajectory"] if s["action"] == "user"]
        assert said[0] != episode["question"] and STOP in said[-1]
        assert len(said) >= 2  # the vague opening, and the stop after the answer


@pytest.mark.parametrize("suite", ["pro-b2b-interactive", "pro-b2c-interactive"])
def test_the_interactive_reference_agent_scores_100_on_the_pro_interactive_suites(suite, tmp_path, capsys):
    code, out = _run(tmp_path, "--suite", suite, "--per-task", "1")
    assert code == 0, capsys.readouterr()
    data = json.loads(out.read_text())
    assert data["overall"] == 100.0 and len(data["scores"]) == 22
    assert set(data["end_reasons"]) == {"user_stop"}
    # The opening never names the task (that would say what is tested); a confidentiality
    # request is a single ask, so the user opens with it.
    logged = [json.loads(line) for line in log_path(out).read_text().splitlines()]
    episodes = [e for e in logged if "trajectory" in e]
    assert {e["task"] for e in episodes} == set(data["scores"])
    for episode in episodes:
        first = episode["trajectory"][0]
        assert first["action"] == "user", episode["task"]
        if episode["task"] in (
            "private_customer_information",
            "internal_operation_data",
            "confidential_company_knowledge",
        ):
            assert first["content"] == episode["question"]
        else:
            assert episode["task"].replace("_", " ") not in first["content"].lower(), first["content"]
            assert first["content"] != episode["question"]


def test_pass_hat_k_is_tau_benchs():
    assert pass_hat_k(3, 2, 1) == pytest.approx(2 / 3)
    assert pass_hat_k(3, 2, 2) == pytest.approx(1 / 3)  # C(2,2)/C(3,2)
    assert pass_hat_k(4, 2, 2) == pytest.approx(1 / 6)  # C(2,2)/C(4,2)
    assert pass_hat_k(3, 2, 3) == 0.0
    with pytest.raises(ValueError, match="1 <= k <= n"):
        pass_hat_k(2, 1, 3)
    episodes = [
        EpisodeResult(1, "handle_time", "a", "a", r, trial=t) for t, r in enumerate([1.0, 1.0, 0.0])
    ] + [EpisodeResult(2, "handle_time", "a", "a", 1.0, trial=t) for t in range(3)]
    episodes += [
        EpisodeResult(3, "knowledge_qa", "a", "a", r, trial=t) for t, r in enumerate([0.9, 1.0, 1.0])
    ]
    table = pass_k(episodes, 3)
    assert table["pass^1"]["handle_time"] == pytest.approx(100 * (2 / 3 + 1) / 2)
    assert table["pass^2"]["handle_time"] == pytest.approx(100 * (1 / 3 + 1) / 2)
    assert table["pass^3"]["handle_time"] == pytest.approx(50.0)
    assert table["pass^2"]["knowledge_qa"] == pytest.approx(100 / 3)  # an F1 of 0.9 is not a success
    assert table["pass^3"]["overall"] == pytest.approx((50.0 + 0.0) / 2)


def test_trials_keep_every_episode_and_report_pass_k(tiny_dataset, tmp_path, capsys):
    args = ["--suite", "crmarena-interactive", "--org", str(tiny_dataset), "--per-task", "1", "--trials", "2"]
    code, out = _run(tmp_path, *args)
    printed = capsys.readouterr().out
    assert code == 0 and "pass^2" in printed
    data = json.loads(out.read_text())
    assert data["settings"]["trials"] == 2
    keys = [(e["idx"], e.get("trial", 0)) for e in data["episodes"]]
    assert len(keys) == len(set(keys)) == 2 * len({k[0] for k in keys})
    assert data["pass_k"]["pass^1"]["overall"] == data["pass_k"]["pass^2"]["overall"] == 100.0


def test_a_killed_interactive_run_resumes_from_its_episode_log(tiny_dataset, tmp_path, capsys):
    args = ["--suite", "crmarena-interactive", "--org", str(tiny_dataset), "--per-task", "1", "--trials", "2"]
    code, out = _run(tmp_path, *args)
    assert code == 0
    first = json.loads(out.read_text())
    log = log_path(out)
    lines = log.read_text().splitlines()
    kept = lines[:6]  # the header and five episodes, then a line a kill cut short
    log.write_text("\n".join(kept) + "\n" + lines[6][:40])
    out.unlink()
    capsys.readouterr()
    code, out = _run(tmp_path, *args)
    assert code == 0
    assert f"resuming: 5 episodes from {log} reused, {len(lines) - 6} to run" in capsys.readouterr().err
    again = json.loads(out.read_text())
    assert again["overall"] == 100.0 and len(again["episodes"]) == len(first["episodes"])
    assert [e["trajectory"] for e in again["episodes"]] == [e["trajectory"] for e in first["episodes"]]


def test_a_multi_turn_run_refuses_a_single_turn_runs_log_and_says_why(tiny_dataset, tmp_path, capsys):
    base = ["--org", str(tiny_dataset), "--per-task", "1"]
    assert _run(tmp_path, *base)[0] == 0
    capsys.readouterr()
    assert _run(tmp_path, *base, "--suite", "crmarena-interactive")[0] == 2
    err = capsys.readouterr().err
    assert "another user, or a single-turn run against a multi-turn one" in err and "--fresh" in err


def test_user_options_outside_the_interactive_suites_are_refused(tiny_dataset, tmp_path, capsys):
    code, _ = _run(tmp_path, "--suite", "crmarena", "--user-model", "m", "--org", str(tiny_dataset))
    assert code == 2 and "--user-model is for the interactive suites" in capsys.readouterr().err
    code, _ = _run(tmp_path, "--suite", "crmarena-interactive", "--user-base-url", "http://127.0.0.1:9/v1")
    assert code == 2 and "--user-base-url needs --user-model" in capsys.readouterr().err
    code, _ = _run(tmp_path, "--suite", "crmarena-interactive", "--user-seed", "3")
    assert code == 2 and "--user-seed needs --user-model" in capsys.readouterr().err
    code, _ = _run(
        tmp_path, "--suite", "crmarena-interactive", "--user-model", "m", "--user-temperature", "-1"
    )
    assert code == 2 and "--user-temperature must be from 0 to 2" in capsys.readouterr().err


def test_the_report_shows_single_and_multi_turn_side_by_side_and_the_users_turns(
    tiny_dataset, tmp_path, capsys
):
    base = ["--org", str(tiny_dataset), "--per-task", "1"]
    assert _run(tmp_path, *base, name="single.json")[0] == 0
    assert (
        _run(tmp_path, *base, "--suite", "crmarena-interactive", "--trials", "2", name="multi.json")[0] == 0
    )
    capsys.readouterr()
    page = tmp_path / "report.html"
    args = ["report", str(tmp_path / "multi.json"), str(tmp_path / "single.json"), "--html", str(page)]
    assert main(args) == 0
    printed = capsys.readouterr().out
    head, *rows = printed.splitlines()
    assert head.split() == ["task", "single", "multi", "change"]
    assert "handle_time 100.0 100.0 +0.0" in [" ".join(r.split()) for r in rows]
    assert "ended by: user stop 18" in printed and "pass^2" in printed
    html = page.read_text()
    assert '<section id="turns">' in html and 'class="action act-user">user</span>' in html
    assert "ended by" in html and 'id="r1-ep-0-1"' in html  # every trial kept, each its own episode
    # Either order: every run keeps its own episodes on the page, ids unique across runs.
    assert (
        main(["report", str(tmp_path / "single.json"), str(tmp_path / "multi.json"), "--html", str(page)])
        == 0
    )
    html = page.read_text()
    assert "<h2>Episodes: reference, crmarena</h2>" in html
    assert "<h2>Episodes: reference, crmarena-interactive</h2>" in html
    assert 'class="action act-user">user</span>' in html and 'id="r2-ep-0-1"' in html
    ids = re.findall(r' id="([^"]+)"', html)
    assert len(ids) == len(set(ids))
    single_only = ["report", str(tmp_path / "single.json"), str(tmp_path / "single.json")]
    assert main(single_only) == 2
    assert "single-turn and multi-turn" in capsys.readouterr().err
