"""Milliseconds of Python per price move on Costs & groups, before and after a change, in one run.

    python benchmarks/move_cost.py                        # the screening sample and 200,000 rows
    python benchmarks/move_cost.py --rows 1000000 --moves 30
    python benchmarks/move_cost.py --before 3458aeb --changed costlib/present/chart_text.py ...
    python benchmarks/move_cost.py --page value --before 0e6ef91 --rows 0 200000 1000000

Issue 39: twenty reviewers moving prices at once queue on the interpreter lock, so what a move
costs in Python on the script thread is what they wait for. A move here is what the page's
``live_answer`` computes at a new price book (each move a new false-negative price, so nothing
is remembered from the move before): the answer (`answers.costs_answer`, its recommendation
made again; its parts, "answer: ...", are timed inside it: `PARTS`), the cost chart
(`CostsAnswer.cost_chart`), its text alternative (`present.chart_text`), and the chart as
``st.plotly_chart`` sends it (Plotly's check of the figure and its JSON). The page's grids and
widgets (views/) are not timed.

"Before" is this checkout with the modules a move goes through (`CHANGED`: the last cut's,
`PRICED`) as they were at ``--before``; "after" is this checkout. Each runs in its own
interpreter, the rounds alternate (before, after, before, ...) so that the machine's drift falls
on both, and the figures are medians over every move of every round.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHART = (  # the cost chart's modules (the first cut: `--before 3458aeb --changed` these)
    "costlib/present/chart_text.py",
    "costlib/present/cost_figures.py",
    "costlib/present/plotting.py",
    "costlib/core/thinning.py",
    "costlib/answers/costs.py",
)
JUDGING = (  # the recommendation's judging at the new prices (the second cut: `--before 23a82e9`)
    "costlib/binary/folds.py",
    "costlib/binary/honest.py",
    "costlib/binary/refits.py",
    "costlib/binary/judged_rules.py",
    "costlib/binary/decision.py",
    "costlib/binary/model_sweeps.py",
    "costlib/binary/disparity.py",
    "costlib/core/sweep.py",
    "costlib/core/prices.py",
)
PRICED = (  # the cross-fit priced on its hulls' windows, the tables read as arrays (the third cut: `--before 78ccda3`)
    "costlib/binary/folds.py",
    "costlib/binary/refits.py",
    "costlib/binary/judged_rules.py",
    "costlib/binary/disparity.py",
)
CHANGED = PRICED
PARTS = {  # parts of the answer, timed inside it: stage -> (module, function) as the answer calls it
    "answer: cross-fit": ("costlib.binary.honest", "repeated_cross_fit"),
    "answer: refit bootstrap": ("costlib.binary.honest", "price_fold_refits"),
    "answer: refit bootstrap (a split)": ("costlib.binary.honest", "price_refits"),
    "answer: rules judged": ("costlib.binary.decision", "evaluate_rules"),
    "answer: fitted rules judged": ("costlib.binary.decision", "judge_fitted"),
    "answer: disparities": ("costlib.binary.disparity", "shipped_disparities"),
}
STAGES = ("answer", *PARTS, "cost chart", "chart text", "sent", "move")
VALUE_CHANGED = (  # the Value page's rows sorted, dealt and drawn once (2026-12-06: `--page value --before 0e6ef91`)
    "costlib/value/per_outcome.py",
    "costlib/value/recommendation.py",
    "costlib/answers/value.py",
    "costlib/answers/value_sections.py",
    "costlib/binary/honest.py",
    "costlib/binary/model_sweeps.py",
)
VALUE_STAGES = ("answer", "chart", "move")

WORKER = r"""
import importlib, io, json, sys, time, warnings
warnings.filterwarnings("ignore")
sys.path.insert(0, {root!r})
import numpy as np, pandas as pd, plotly.io, plotly.tools
from costlib.answers.audit import dataset_models
from costlib.answers.costs import costs_answer
from costlib.core.dataset import ColumnMapping
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present.chart_text import chart_text

rows, moves = {rows}, {moves}
if rows:
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, rows)
    z = 2 * y - 1
    df = pd.DataFrame({{
        "label": y,
        "score_a": np.round(1 / (1 + np.exp(-(1.5 * z + rng.normal(0, 1.2, rows)))), 4),
        "score_b": np.round(1 / (1 + np.exp(-(1.0 * z + rng.normal(0, 1.0, rows)))), 4),
        "group": rng.choice(np.array(["A", "B", "C"]), rows),
    }})
    mapping = ColumnMapping(label="label", scores=("score_a", "score_b"), score_scale="probability", group="group")
    ds = prepare(df, mapping, name="rows.csv", fingerprint="rows")
else:
    s = SAMPLES["screening"]
    ds = prepare(pd.read_csv(io.BytesIO(sample_bytes("screening"))), s.mapping, name=s.filename, fingerprint="s")
models = dataset_models(ds, tuple(ds.scores))
groups = next(iter(models.values())).groups
kept = {{}}
spent = {{}}

def timed(stage, f):
    def call(*args, **kwargs):
        t = time.perf_counter()
        try:
            return f(*args, **kwargs)
        finally:
            spent[stage] = spent.get(stage, 0.0) + time.perf_counter() - t
    return call

for stage, (module, name) in {parts!r}.items():
    module = importlib.import_module(module)
    setattr(module, name, timed(stage, getattr(module, name)))

def remember(name, key, compute):
    if (name, key) not in kept:
        kept[(name, key)] = compute()
    return kept[(name, key)]

times = {{stage: [] for stage in {stages!r}}}
for i in range(moves + 3):  # the first three warm the imports and the sweeps' memo
    costs = {{g: (1.0, 4.0 + 0.25 * i) for g in groups}}
    spent.clear()
    t0 = time.perf_counter()
    answer = costs_answer(models, costs, resamples=200, unit="$", volume=1000, remember=remember,
                          group_parts=ds.group_parts, group_columns=ds.mapping.group_columns)
    t1 = time.perf_counter()
    fig = answer.cost_chart(answer.rec.model, by_flagged=bool(i % 2))
    t2 = time.perf_counter()
    chart_text(fig)
    t3 = time.perf_counter()
    plotly.io.to_json(plotly.tools.return_figure_from_figure_or_data(fig, validate_figure=True), validate=False)
    t4 = time.perf_counter()
    if i >= 3:
        spans = ((t0, t1), (t1, t2), (t2, t3), (t3, t4), (t0, t4))
        for stage, (a, b) in zip(("answer", "cost chart", "chart text", "sent", "move"), spans):
            times[stage].append(1000 * (b - a))
        for stage in {parts!r}:
            times[stage].append(1000 * spent.get(stage, 0.0))
print(json.dumps(times))
"""


VALUE_WORKER = r"""
import io, json, sys, time, warnings
warnings.filterwarnings("ignore")
sys.path.insert(0, {root!r})
import numpy as np, pandas as pd
from costlib.answers.value import value_answer
from costlib.core.dataset import ColumnMapping
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes

rows, moves = {rows}, {moves}
if rows:  # continuous probabilities: a distinct score per row
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, rows)
    p = 1 / (1 + np.exp(-(1.2 * (2 * y - 1) + rng.normal(0, 1.2, rows))))
    df = pd.DataFrame({{"label": y, "score": p}})
    ds = prepare(df, ColumnMapping(label="label", scores=("score",), score_scale="probability"), name="r.csv",
                 fingerprint="rows")
else:
    s = SAMPLES["compas"]
    ds = prepare(pd.read_csv(io.BytesIO(sample_bytes("compas"))), s.mapping, name=s.filename, fingerprint="s")
kept = {{}}

def remember(name, key, compute):
    if (name, key) not in kept:
        kept[(name, key)] = compute()
    return kept[(name, key)]

times = {{stage: [] for stage in {stages!r}}}
for i in range(moves + 2):  # the first two make the sweeps and warm the imports
    costs = {{"everyone": (1.0, 4.0 + 0.25 * i)}}
    t0 = time.perf_counter()
    answer = value_answer(ds, costs, names=("everyone",), worth=1.0, reject_worth=0.0, remember=remember)
    t1 = time.perf_counter()
    answer.tau_figure(answer.rec.model)
    t2 = time.perf_counter()
    if i >= 2:
        for stage, (a, b) in zip({stages!r}, ((t0, t1), (t1, t2), (t0, t2))):
            times[stage].append(1000 * (b - a))
print(json.dumps(times))
"""


def before_tree(rev: str, into: Path, changed=CHANGED) -> Path:
    """A copy of this checkout's costlib with the `changed` modules as they were at `rev`."""
    shutil.copytree(ROOT / "costlib", into / "costlib", ignore=shutil.ignore_patterns("__pycache__"))
    for path in changed:
        old = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, check=True).stdout
        (into / path).write_bytes(old)
    return into


def run(root: Path, rows: int, moves: int, page: str = "costs") -> dict:
    """One round in a fresh interpreter: {stage: [ms of each move]}."""
    if page == "value":
        code = VALUE_WORKER.format(root=str(root), rows=rows, moves=moves, stages=VALUE_STAGES)
    else:
        code = WORKER.format(root=str(root), rows=rows, moves=moves, stages=STAGES, parts=PARTS)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    return json.loads(out.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default="78ccda3", help="the commit to compare with")
    parser.add_argument("--changed", nargs="*", help="modules from --before (default: the page's last cut)")
    parser.add_argument("--page", choices=("costs", "value"), default="costs", help="Costs & groups, or Value")
    parser.add_argument("--rows", type=int, nargs="*", default=[0, 200_000], help="0: the sample (screening; COMPAS)")
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--markdown", type=Path, help="also write the table here")
    args = parser.parse_args(argv)
    lines = [
        f"| data | stage | before ({args.before}) ms | after ms | before / after |",
        "|---|---|---:|---:|---:|",
    ]
    value = args.page == "value"
    stages = VALUE_STAGES if value else STAGES
    changed = args.changed if args.changed is not None else (VALUE_CHANGED if value else CHANGED)
    with tempfile.TemporaryDirectory() as tmp:
        old = before_tree(args.before, Path(tmp), changed)
        for rows in args.rows:
            got = {"before": {s: [] for s in stages}, "after": {s: [] for s in stages}}
            for _ in range(args.rounds):
                for name, root in (("before", old), ("after", ROOT)):
                    for stage, ms in run(root, rows, args.moves, args.page).items():
                        got[name][stage] += ms
            data = f"{rows:,} rows" if rows else ("COMPAS sample" if value else "screening sample")
            for stage in stages:
                b, a = statistics.median(got["before"][stage]), statistics.median(got["after"][stage])
                ratio = f"{b / a:.2f}x" if a > 0 else "–"  # a part the answer does not call here
                lines.append(f"| {data} | {stage} | {b:.1f} | {a:.1f} | {ratio} |")
    table = "\n".join(lines)
    print(table)
    if args.markdown:
        args.markdown.write_text(table + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
