"""The fairness searches at scale (issue 39): CPU seconds of `fair_search.fair_cutoffs` and
`fair_random.randomised_cutoffs` on grouped sweeps of 200,000 to 2,000,000 distinct scores per
group, per criterion.

    python benchmarks/fair_scale.py                       # every case, 3 runs, this checkout
    python benchmarks/fair_scale.py --cases 4x200k        # one case
    python benchmarks/fair_scale.py --before /tmp/old     # alternate processes with the costlib
                                                          # under /tmp/old, and check the answers
    python benchmarks/fair_scale.py --cases "audit 1e6"   # the audit's fairness part, 1e6 rows

Each case is a `GroupedSweep` of random rows (`costlib.core.sweep.grouped_sweep`, not timed):
``groups`` groups of ``per_group`` rows on average (group i of ``2 (i + 1) / (groups + 1)`` times
as many: unequal, so that their rates differ), uniform float scores (all distinct), labels drawn
with a probability rising with the score and shifted by group; ``weighted`` cases weigh each
row by a real number in [0, 2). Prices 1 (false positive) and 5 (false negative) in every
group; tolerance 0.02. Each figure is ``time.process_time`` around one call. Equalized odds is
left out: at these sizes its exact search says it has too many pairs of windows and stops.

With ``--before DIR`` every run is a fresh interpreter, alternating this checkout's costlib
with the one in DIR (e.g. ``git archive <commit> costlib | tar -x -C DIR``); the table gives
both and their ratio, and each call's answer (cutoffs, rates, p and cost, as exact ``repr``)
is compared between the two (``--after DIR``: another costlib in place of this checkout's).

``audit 1e6`` times `fairness.fairness_results` as the audit calls it (three criteria, 200
resamples, no split: cross-fitted) on a million rows: the searches in their setting, with the
refits on folds and resamples and everything else the audit's fairness part does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CASES = {  # name: (groups, rows per group, weighted)
    "4x200k": (4, 200_000, False),  # rows per group on average
    "4x200k weighted": (4, 200_000, True),
    "8x250k": (8, 250_000, False),
    "4x700k": (4, 700_000, False),
    "3x2M": (3, 2_000_000, False),
}
AUDITS = {"audit 1e6": 1_000_000}  # name: rows (with --cases only)
CRITERIA = ("demographic parity", "equal opportunity", "equal false positive rate", "equal accuracy")
SEARCHES = ("fair_cutoffs", "randomised_cutoffs")
TOLERANCE = 0.02


def case_sweep(groups: int, per_group: int, weighted: bool):
    """The case's `GroupedSweep` and prices (seeded: the same rows in every run and checkout)."""
    from costlib.core.prices import prices_for
    from costlib.core.sweep import grouped_sweep

    rng = np.random.default_rng([groups, per_group, int(weighted)])
    sizes = np.round(per_group * 2 * np.arange(1, groups + 1) / (groups + 1)).astype(np.int64)
    g = np.repeat(np.arange(groups), sizes)
    n = g.size
    s = rng.random(n)
    y = (rng.random(n) < 0.05 + 0.4 * s + 0.05 * (g % 3)).astype(np.int8)
    w = rng.random(n) * 2 if weighted else None
    gs = grouped_sweep(y, s, g, sample_weight=w)
    return gs, prices_for(gs.groups, (1.0, 5.0))


def answer(fit) -> str:
    """A fit's answer as exact text: every field's ``repr`` (floats round-trip)."""
    return repr(sorted((k, repr(v)) for k, v in vars(fit).items()))


def run_case(name: str) -> dict:
    """{what was timed: [cpu seconds, answer digest]} of one run of case `name`."""
    if name in AUDITS:
        return run_audit(AUDITS[name])
    from costlib.binary.fair_random import randomised_cutoffs
    from costlib.binary.fair_search import fair_cutoffs

    gs, prices = case_sweep(*CASES[name])
    out = {}
    for search, fn in zip(SEARCHES, (fair_cutoffs, randomised_cutoffs), strict=True):
        for criterion in CRITERIA:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t = time.process_time()
                fit = fn(gs, prices, criterion=criterion, tolerance=TOLERANCE)
                cpu = time.process_time() - t
            out[f"{search:19s} {criterion}"] = [cpu, digest(answer(fit))]
    return out


def run_audit(rows: int) -> dict:
    """The fairness part of the audit (`fairness.fairness_results`: the fair rules judged
    cross-fitted, the tightened and randomised ones, 200 resamples) on `rows` rows of four
    groups of unequal size, distinct scores; its answer is its summary table and cutoffs."""
    from costlib.binary.decision import sweep_model
    from costlib.binary.fairness import fairness_results
    from costlib.core.prices import prices_for

    rng = np.random.default_rng([rows, 4])
    g = rng.choice(4, rows, p=[0.1, 0.2, 0.3, 0.4])
    x = rng.normal(size=rows)
    y = (rng.random(rows) < 1 / (1 + np.exp(-(1.2 * x + (g - 1.5) / 2)))).astype(np.int8)
    s = 1 / (1 + np.exp(-(1.2 * x + (g - 1.5) / 2 + rng.normal(scale=0.3, size=rows))))
    ms = sweep_model(y, s, np.array([f"g{i}" for i in g]))
    prices = prices_for(ms.groups, (1.0, 3.0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = time.process_time()
        fr = fairness_results(ms, prices, criteria=CRITERIA[:3], tolerance=TOLERANCE, n_resamples=200)
        cpu = time.process_time() - t
    text = fr.summary.to_csv(float_format=repr) + repr({k: v.cutoffs.tolist() for k, v in fr.judged.items()})
    return {"fairness_results": [cpu, digest(text)]}


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def child(code: str, name: str) -> dict:
    """`run_case` in a fresh interpreter importing the costlib under `code`."""
    script = (
        f"import sys, json; sys.path.insert(0, {code!r}); sys.path.insert(1, {str(ROOT / 'benchmarks')!r})\n"
        f"import fair_scale; print(json.dumps(fair_scale.run_case({name!r})))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", nargs="*", default=list(CASES), choices=[*CASES, *AUDITS])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", help="a directory holding another costlib to alternate with")
    parser.add_argument("--after", default=str(ROOT), help="with --before: the costlib to compare (this checkout's)")
    args = parser.parse_args()
    for name in args.cases:
        runs = {"after": [], "before": []}
        for _ in range(args.runs):
            if args.before:
                runs["before"].append(child(args.before, name))
                runs["after"].append(child(args.after, name))
            else:
                sys.path.insert(0, str(ROOT))
                runs["after"].append(run_case(name))
        if name in AUDITS:
            print(f"\n{name}: fairness_results on {AUDITS[name]:,} rows, CPU s")
        else:
            groups, per_group, weighted = CASES[name]
            weights = " (weighted)" if weighted else ""
            print(f"\n{name}: {groups} groups x {per_group:,} rows on average{weights}, CPU s")
        for label in runs["after"][0]:
            now = [r[label][0] for r in runs["after"]]
            line = f"  {label:46s} " + " ".join(f"{x:6.2f}" for x in now)
            if args.before:
                was = [r[label][0] for r in runs["before"]]
                same = len({r[label][1] for r in runs["after"] + runs["before"]}) == 1
                line = (
                    f"  {label:46s} before "
                    + " ".join(f"{x:6.2f}" for x in was)
                    + "  after "
                    + " ".join(f"{x:6.2f}" for x in now)
                    + f"  {min(was) / min(now):5.1f}x  same answer: {'yes' if same else 'NO'}"
                )
            print(line, flush=True)


if __name__ == "__main__":
    main()
