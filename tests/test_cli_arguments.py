"""What a user reads when an argument is wrong or asks for --help: one message per rule, the right usage, plain text."""

from __future__ import annotations

import argparse
import re

import pytest

from crmarena_sf.cli.main import build_parser, main


def _usage_error(capsys, argv: list[str]) -> list[str]:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    return capsys.readouterr().err.splitlines()


@pytest.mark.parametrize("value", ["0", "-1", "-100"])
def test_scale_below_one_is_one_message(capsys, value):
    err = _usage_error(capsys, ["generate", "--out", "x", "--scale", value])
    assert err[-1] == f"crmarena-sf generate: error: argument --scale: must be 1 or more, not {value}"


def test_per_task_and_seed_keep_their_own_rules(capsys):
    err = _usage_error(capsys, ["tasks", "build", "--out", "x", "--per-task", "-1"])
    assert err[-1].endswith("argument --per-task: must be 1 or more, not -1")
    err = _usage_error(capsys, ["tasks", "build", "--out", "x", "--seed", "-1"])
    assert err[-1].endswith("argument --seed: must be 0 or more, not -1")


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["query", "SELECT Id FROM Case", "--frobnicate"], "query"),
        (["search", "FIND {x}", "--frobnicate"], "search"),
        (["serve", "--frobnicate"], "serve"),
        (["tasks", "build", "--out", "x", "--frobnicate"], "tasks build"),
        (["metadata", "pull", "--out", "x", "--frobnicate"], "metadata pull"),
    ],
)
def test_an_unknown_option_is_reported_with_its_commands_usage(capsys, argv, command):
    err = _usage_error(capsys, argv)
    assert err[0].startswith(f"usage: crmarena-sf {command} ")
    assert err[-1] == f"crmarena-sf {command}: error: unrecognized arguments: --frobnicate"


def test_an_unknown_top_level_option_keeps_the_top_level_usage(capsys):
    err = _usage_error(capsys, ["--frobnicate"])
    assert err[0].startswith("usage: crmarena-sf [-h]")


def _every_parser(parser: argparse.ArgumentParser):
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                yield from _every_parser(child)


RST_MARKUP = re.compile(r"``|:(?:func|mod|class|data|meth|attr):`|\\\\")


def test_help_texts_are_plain_text():
    parsers = list(_every_parser(build_parser()))
    assert len(parsers) >= 13  # every command is checked, nested ones included
    for parser in parsers:
        text = parser.format_help()
        assert not RST_MARKUP.search(text), f"{parser.prog}:\n{text}"
