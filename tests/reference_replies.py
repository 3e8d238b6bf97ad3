"""What the reference agent replies to a task (its gold answer, worded as the reference agent words it):
the answers the MCP suite tests submit through an MCP client."""

from __future__ import annotations

from crmarena_sf.tasks.agents.reference import pro_reply
from crmarena_sf.tasks.families import family
from crmarena_sf.tasks.pro.suite import is_pro


def gold_reply(record) -> str:
    """What the reference agent replies to a task: its gold answer, worded as the reference agent words it."""
    if not is_pro(record.suite):
        return "None" if record.answer is None else str(record.answer)
    gold = record.answer
    answer = None if gold == [None] else gold[0] if len(gold) == 1 else tuple(gold)
    return pro_reply(family(record.task, record.suite), answer)
