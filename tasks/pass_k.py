"""pass^k: how reliably an agent solves a task over repeated trials, as tau-bench defines it.

tau-bench (Yao et al., arXiv 2406.12045, §4): with n trials of a task and c of them successful,
pass^k = C(c, k) / C(n, k), the chance that k trials drawn without replacement all succeed;
the benchmark's pass^k is its mean over tasks. pass^1 is the mean success rate.

Here a "task" of that definition is one instance (an idx), and a trial succeeds when its
reward is 1 (tau-bench's rewards are 0 or 1; a fuzzy-match F1 below 1 is not a success).
Only scored episodes count (an unscored one says nothing about the agent), so an instance with
fewer than k scored trials has no pass^k. Per task family it is the mean over the family's
instances; ``overall`` is the unweighted mean of the families, as the run's overall score is.
"""

from __future__ import annotations

from collections import defaultdict
from math import comb

from crmarena_sf.tasks.families import ALL_FAMILIES


def pass_hat_k(n: int, c: int, k: int) -> float:
    """C(c, k) / C(n, k): the chance that k of n trials, c of them successful, all succeed."""
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"pass^k needs 0 <= c <= n and 1 <= k <= n, not n={n}, c={c}, k={k}")
    return comb(c, k) / comb(n, k)


def trial_counts(episodes) -> dict[tuple[str, int], tuple[int, int]]:
    """``(task, idx) -> (n scored trials, c successful)``."""
    counts: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])
    for e in episodes:
        if e.scored:
            entry = counts[(e.task, e.idx)]
            entry[0] += 1
            entry[1] += e.reward == 1.0
    return {key: (n, c) for key, (n, c) in counts.items()}


def pass_k(episodes, trials: int) -> dict[str, dict[str, float]]:
    """``{"pass^1": {"overall": ..., task: ...}, ..., "pass^k": {...}}`` in percent (tasks in report order)."""
    counts = trial_counts(episodes)
    out: dict[str, dict[str, float]] = {}
    for k in range(1, trials + 1):
        by_task: dict[str, list[float]] = defaultdict(list)
        for (task, _), (n, c) in counts.items():
            if n >= k:
                by_task[task].append(pass_hat_k(n, c, k))
        scores = {t: 100 * sum(v) / len(v) for t in ALL_FAMILIES if (v := by_task.get(t))}
        if scores:
            out[f"pass^{k}"] = {"overall": sum(scores.values()) / len(scores), **scores}
    return out


def pass_k_table(results) -> str:
    """The pass^1..pass^k table of a run of several trials, one row per task."""
    table = results.pass_k or {}
    columns = list(table)
    tasks = [t for t in ALL_FAMILIES if any(t in table[c] for c in columns)] + ["overall"]
    lines = [f"{'task':<36}" + "".join(f"{c:>9}" for c in columns)]
    for task in tasks:
        cells = "".join(f"{table[c][task]:>9.1f}" if task in table[c] else f"{'-':>9}" for c in columns)
        lines.append(f"{task:<36}{cells}")
    return "\n".join(lines)
