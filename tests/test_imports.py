"""``import costlib`` is light, and the public names are all there.

Every public name is imported on first use (PEP 562), so ``import costlib`` loads no heavy
library; the entry points, training and loading modules import scikit-learn, SciPy, DuckDB,
pyarrow, Plotly, Streamlit and Spark only inside the functions that use them. Each check runs
in a fresh interpreter: this process has imported everything already.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

HEAVY = ("sklearn", "scipy", "duckdb", "pyarrow", "plotly", "streamlit", "pyspark")

# The contract's names (shared/spec/costlib.md).
CONTRACT = (
    "optimal_threshold_within",
    "capacity_curve",
    "optimal_cutoffs_within",
    "cost_by_period",
    "expected_cost_unlabelled",
    "estimate_prior",
    "cost_scorer",
    "apply_policy",
    "policy_estimator",
    "threshold_sweep",
    "elkan_threshold",
    "expected_cost",
    "cost_curve",
    "optimal_threshold",
    "group_costs",
    "compare_rules",
    "no_model_baseline",
    "scan_optimal_thresholds",
    "scan_group_costs",
    "optimal_cutoffs_by_ratio",
    "value_threshold",
    "value_score",
    "value_curve",
    "optimal_value",
    "class_thresholds",
    "cost_sensitive_value",
    "cost_sensitive_error",
    "expected_cost_matrix",
    "min_cost_decisions",
    "delta_from_votes",
    "delta_from_threshold",
    "delta_from_rating",
    "normalized_excess_cost",
    "error_rate",
    "compare_training",
    "fit_temperature",
    "apply_temperature",
)

# The types the public functions return, and the error type of bad user data.
TYPES = (
    "Sweep",
    "GroupedSweep",
    "ModelSweeps",
    "Recommendation",
    "ValueResult",
    "CostSensitiveValue",
    "Prices",
    "DataError",
    "DegenerateWarning",
)

# Every module of the package: each may import a heavy library only inside the function that
# uses it, except the figure builders, which draw with Plotly.
LIGHT_PACKAGES = (
    "costlib.core",
    "costlib.stats",
    "costlib.binary",
    "costlib.value",
    "costlib.scale",
    "costlib.present",
    "costlib.training",
    "costlib.loading",
    "costlib.cli",
    "costlib.handoff",
)
LIGHT_MODULES = (
    "costlib",
    "costlib.__main__",
    "costlib.calibration",
    "costlib.instance",
    "costlib.multiclass",
    "costlib.notebook",
)
NOT_CHECKED = ()
PLOTS = (
    "costlib.present.plotting",
    "costlib.present.cost_figures",
    "costlib.present.figures",
    "costlib.present.watch_figures",
)
ALLOWED = {m: ("plotly",) for m in (*PLOTS, "costlib.present.report", "costlib.training.figures")}
ALLOWED["costlib.handoff.estimator"] = ("sklearn",)  # it subclasses scikit-learn's estimators


def _python(code: str) -> str:
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_import_costlib_loads_nothing_heavy_and_every_name_resolves():
    out = json.loads(
        _python(
            "import json, sys\n"
            "import costlib\n"
            f"heavy = sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})\n"
            "missing = [n for n in costlib.__all__ if getattr(costlib, n, None) is None]\n"
            # pandas itself loads pyarrow when it is installed: what costlib adds is the question
            f"used = sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r} and m.split('.')[0] != 'pyarrow')\n"
            "print(json.dumps({'heavy': heavy, 'used': used, 'missing': missing, 'all': costlib.__all__,"
            " 'dir': dir(costlib)}))\n"
        )
    )
    assert out["heavy"] == [], f"import costlib loads {out['heavy']}"
    # every public name resolved: the modules behind them still load no scikit-learn, SciPy,
    # DuckDB, Plotly, Streamlit or Spark until a function that needs one is called
    assert out["used"] == [], f"the public names load {out['used']}"
    assert out["missing"] == []
    assert set(out["all"]) <= set(out["dir"])
    assert len(out["all"]) == len(set(out["all"]))


def test_all_covers_the_contract_and_the_returned_types():
    import costlib

    missing = [n for n in (*CONTRACT, *TYPES) if n not in costlib.__all__]
    assert missing == [], f"costlib.__all__ lacks {missing}"
    for name in (*CONTRACT, *TYPES):
        exec(f"from costlib import {name}", {})
    assert isinstance(costlib.DataError("x"), ValueError)
    assert costlib.value_score([0, 1], [0.2, 0.9], k=1).__class__ is costlib.ValueResult


def test_subpackages_stay_reachable_as_attributes():
    out = _python("import costlib\nprint(costlib.loading.__name__, costlib.training.__name__)\n")
    assert out.split() == ["costlib.loading", "costlib.training"]


def test_no_module_imports_a_heavy_library_when_imported():
    """No module here runs an import of a heavy library while it is being imported.

    Every import statement is watched (``builtins.__import__``), not only the first load of a
    library, so a heavy import is caught even when another module had loaded it already.
    """
    out = json.loads(
        _python(
            "import builtins, importlib, json, pkgutil\n"
            f"heavy, packages, modules, skip = {HEAVY!r}, {LIGHT_PACKAGES!r}, {LIGHT_MODULES!r}, {NOT_CHECKED!r}\n"
            "names = list(modules)\n"
            "for p in packages:\n"
            "    names.append(p)\n"
            "    names += [m.name for m in pkgutil.iter_modules(importlib.util.find_spec(p).submodule_search_locations,"
            " p + '.')]\n"
            "names = [n for n in names if n not in skip]\n"
            "seen, real = [], builtins.__import__\n"
            "def watch(name, globals=None, locals=None, fromlist=(), level=0):\n"
            "    who = (globals or {}).get('__name__')\n"
            "    if level == 0 and who in names and name.split('.')[0] in heavy:\n"
            "        seen.append([who, name])\n"
            "    return real(name, globals, locals, fromlist, level)\n"
            "builtins.__import__ = watch\n"
            "for n in names:\n"
            "    importlib.import_module(n)\n"
            "print(json.dumps({'names': names, 'seen': seen}))\n"
        )
    )
    assert {"costlib.cli.train", "costlib.loading.preparing", "costlib.core.sweep", "costlib.scale.scans"} <= set(
        out["names"]
    )
    bad = [(who, name) for who, name in out["seen"] if name.split(".")[0] not in ALLOWED.get(who, ())]
    assert bad == [], f"these modules import a heavy library when imported: {bad}"


def test_a_fresh_servers_first_costs_run_does_not_import_scikit_learn():
    """The first Costs run of a fresh interpreter (as the first visitor's) loads no scikit-learn,
    and the dashboard command's warm-up (`costlib.cli.dashboard.warm`) loads what that run needs
    and no scikit-learn either."""
    out = json.loads(
        _python(
            "import json, sys\n"
            "from streamlit.testing.v1 import AppTest\n"
            "at = AppTest.from_file('app.py', default_timeout=300)\n"
            "at.query_params['data'] = 'compas'\n"
            "at.run(); at.switch_page('views/costs.py').run()\n"
            "run = sorted(m for m in sys.modules if m.startswith('costlib') or m.split('.')[0] in "
            "('sklearn', 'scipy'))\n"
            "print(json.dumps({'exceptions': [e.message for e in at.exception], 'modules': run}))\n"
        )
    )
    assert out["exceptions"] == []
    assert not [m for m in out["modules"] if m.startswith("sklearn")], "the first Costs run imports scikit-learn"
    warmed = json.loads(
        _python(
            "import json, sys\n"
            "from costlib.cli.dashboard import warm\n"
            "warm()\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('costlib') or m.split('.')[0] in "
            "('sklearn', 'scipy'))))\n"
        )
    )
    assert not [m for m in warmed if m.startswith("sklearn")]
    needed = {m for m in out["modules"] if m.startswith(("costlib.answers", "costlib.binary", "costlib.present"))}
    assert needed - set(warmed) == set(), "the warm-up misses modules the first Costs run imports"


def test_a_warmed_servers_pages_load_no_scikit_learn_and_the_collector_walks_only_what_sessions_make():
    """After the dashboard's warm-up, the first run of every page but Train (which trains
    scikit-learn's models) loads no scikit-learn: the Value page's accuracy and F1 and the Cost
    matrix page's confusion are counted, not imported. Streamlit collects garbage in full after
    every run; what the imports made is frozen out of that walk by the warm-up and again at the
    start of the first run after new modules load (as after Train's), so the walk stays a few
    thousand objects instead of the 50,000 that SciPy and scikit-learn add."""
    out = json.loads(
        _python(
            "import gc, json, sys\n"
            "from costlib.cli.dashboard import warm\n"
            "warm()\n"
            "from streamlit.testing.v1 import AppTest\n"
            "samples = {'matrix': 'tickets', 'instance': 'offensive', 'train': 'offensive'}\n"
            "out = {'exceptions': [], 'sklearn': {}}\n"
            "def first_run(page):\n"
            "    at = AppTest.from_file('app.py', default_timeout=300)\n"
            "    at.query_params['data'] = samples.get(page, 'compas')\n"
            "    at.switch_page(f'views/{page}.py').run()\n"
            "    out['exceptions'] += [e.message for e in at.exception]\n"
            "    return at\n"
            "for page in ('data', 'costs', 'prices', 'value', 'matrix', 'instance', 'calibration', 'watch'):\n"
            "    first_run(page)\n"
            "    out['sklearn'][page] = sorted(m for m in sys.modules if m.split('.')[0] == 'sklearn')\n"
            "def walked():\n"
            "    first_run('costs'); gc.collect(); return len(gc.get_objects())\n"
            "out['walked'] = walked()\n"
            "import sklearn.linear_model  # what a training run loads\n"
            "out['walked_after_sklearn'] = walked()\n"
            "print(json.dumps(out))\n"
        )
    )
    assert out["exceptions"] == []
    assert {page: mods for page, mods in out["sklearn"].items() if mods} == {}
    assert out["walked"] < 5_000, out
    assert out["walked_after_sklearn"] < 5_000, out
