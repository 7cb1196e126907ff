"""Golden outputs of every surface, so that a reshaping of the package can prove it changed nothing.

Each case is run through a public surface only (the app in AppTest, the command line in a
subprocess, the files it writes), so the same harness runs before and after the code moves:

- each page on each built-in sample, at two price settings (and per-group prices on Costs):
  every element the page shows, in order (text, metrics, tables, widget labels and values),
  and each chart's JSON;
- ``python -m costlib audit``: its text, its ``--json``, the HTML report's text and charts, and
  the policy file;
- Watch: the page on its built-in year, and ``python -m costlib watch`` on the year's two files.

What would differ between two runs of the same code is normalised away (creation times, the
random ids Plotly gives a chart's div); floats are compared to 12 significant digits, so a
reordering of the same sum does not count as a change. Charts are stored as one digest per
trace and one for the layout (the whole JSON would be megabytes), with each trace's name, type
and length kept readable so a failure says where to look.

Record (only when a change of output is intended, and say which in the commit):

    .venv/bin/python tests/golden_harness.py --record
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import math
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
APP = str(ROOT / "app.py")

SAMPLES = ("compas", "screening", "tickets", "offensive")
PAGES = ("data", "costs", "prices", "value", "matrix", "instance", "calibration")
PRICES = {
    "default": {},
    "dear_misses": {"c_fp": "2", "c_fn": "7", "unit": "€", "volume": "2500"},
}
GROUPED = ("compas", "screening")
PER_GROUP = {"per_group": "true", "c_fp": "1", "c_fn": "3", "c_fp_0": "4", "c_fn_1": "6"}

COMPAS = "costlib/samples/compas.csv"
SCREENING = "costlib/samples/screening_two_models.csv"
CLI_CASES = {
    "compas_split_group": [
        COMPAS,
        *("--label", "two_year_recid", "--score", "p_recid", "--split", "split", "--group", "race"),
        *("--c-fp", "1", "--c-fn", "3", "--resamples", "200"),
    ],
    "compas_group_prices": [
        COMPAS,
        *("--label", "two_year_recid", "--score", "p_recid", "--split", "split", "--group", "race"),
        *("--c-fp", "5", "--c-fn", "3", "--c-fp-group", "Caucasian=8", "--unit", "$", "--volume", "900"),
        *("--resamples", "200"),
    ],
    "compas_no_split": [
        COMPAS,
        *("--label", "two_year_recid", "--score", "p_recid", "--group", "race"),
        *("--c-fp", "20", "--c-fn", "1", "--resamples", "200"),
    ],
    "screening_two_models": [
        SCREENING,
        *("--label", "label", "--score", "score_calibrated", "--score", "score_overconfident"),
        *("--split", "split", "--group", "group", "--c-fp", "1", "--c-fn", "4", "--resamples", "200"),
    ],
}


def app_cases() -> list[str]:
    cases = [f"app:{s}:{p}:{k}" for s in SAMPLES for p in PAGES for k in PRICES]
    cases += [f"app:{s}:costs:per_group" for s in GROUPED]
    cases += [f"app:compas:watch:{k}" for k in PRICES]  # Watch opens on its built-in year
    return [*cases, "app:compas:train:default"]  # Train has built-in data of its own


#: ``costlib watch`` on the built-in year's two files (the Watch page's downloads)
WATCH_CASES = {"watch_year": ["--resamples", "200"]}


def cli_cases() -> list[str]:
    return [f"cli:{name}" for name in CLI_CASES] + [f"cli:{name}" for name in WATCH_CASES]


def all_cases() -> list[str]:
    return app_cases() + cli_cases()


# --------------------------------------------------------------------------------------------
# Normalising


_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def text(s: str) -> str:
    return _UUID.sub("<id>", _TIME.sub("<time>", s))


def number(x):
    if isinstance(x, bool) or not isinstance(x, float):
        return x
    if not math.isfinite(x):
        return repr(x)
    return float(f"{x:.12g}") if x != 0 else 0.0


def tree(x):
    """JSON-like data with typed arrays decoded, floats to 12 significant digits, times masked."""
    if isinstance(x, dict):
        if set(x) >= {"dtype", "bdata"}:
            arr = np.frombuffer(base64.b64decode(x["bdata"]), dtype=np.dtype(x["dtype"]))
            if "shape" in x:
                arr = arr.reshape([int(n) for n in str(x["shape"]).split(",")])
            return tree(arr.tolist())
        return {k: tree(v) for k, v in sorted(x.items())}
    if isinstance(x, list | tuple):
        return [tree(v) for v in x]
    if isinstance(x, str):
        return text(x)
    return number(x)


def digest(x) -> str:
    blob = json.dumps(tree(x), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def figure(spec: dict) -> dict:
    """A chart as readable trace summaries plus digests of its traces and layout."""
    traces = []
    for t in spec.get("data", []):
        n = t.get("x", t.get("y", t.get("z", [])))
        n = tree(n) if isinstance(n, dict) else n
        traces.append(
            {
                "type": t.get("type", "scatter"),
                "name": text(str(t.get("name", ""))),
                "points": len(n or []),
                "digest": digest(t),
            }
        )
    layout = dict(spec.get("layout", {}))
    layout.pop("template", None)  # Plotly's theme: the same for every chart, and large
    title = layout.get("title", {})
    return {
        "title": text(str(title.get("text", "") if isinstance(title, dict) else title)),
        "traces": traces,
        "layout": digest(layout),
    }


def frame(df) -> list:
    head = [str(c) for c in df.columns]
    body = [
        [text(str(number(v) if isinstance(v, float) else v)) for v in row]
        for row in df.astype(object).itertuples(index=False)
    ]
    return [head, *body]


# --------------------------------------------------------------------------------------------
# The app


def _element(node) -> dict | None:
    kind = node.type
    if kind == "plotly_chart":
        return {"plotly_chart": figure(json.loads(node.proto.spec)), "key": node.key}
    if kind in ("dataframe", "arrow_data_frame", "table", "arrow_table"):
        try:
            return {kind: frame(node.value)}
        except Exception:  # an element AppTest cannot decode is still recorded by its kind
            return {kind: None}
    out: dict = {"type": kind}
    for attr in ("label", "value", "delta", "options", "body", "help"):
        try:
            value = getattr(node, attr)
        except Exception:
            continue
        if value is None or callable(value):
            continue
        if hasattr(value, "to_csv"):
            value = frame(value)
        out[attr] = tree(value if isinstance(value, str | int | float | bool | list | tuple | dict) else str(value))
    if kind == "download_button":
        out.pop("value", None)
    return out


def run_app_case(case: str) -> dict:
    from streamlit import config
    from streamlit.testing.v1 import AppTest
    from streamlit.testing.v1.element_tree import Block

    _, sample, page, prices = case.split(":")
    params = {"data": sample, **(PER_GROUP if prices == "per_group" else PRICES[prices])}
    params["details"] = "true"  # the whole page: the sections drawn on request too
    config.set_option("client.showErrorDetails", "full")
    at = AppTest.from_file(APP, default_timeout=300)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    if page != "data":
        at.switch_page(f"views/{page}.py").run()
    elements = []
    for node in at._tree:
        if isinstance(node, Block):
            continue
        item = _element(node)
        if item is not None:
            elements.append(item)
    return {"case": case, "exceptions": [text(e.message) for e in at.exception], "elements": elements}


# --------------------------------------------------------------------------------------------
# The command line


class _Text(HTMLParser):
    """The report's visible text, a line per block, with scripts and styles left out."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        elif tag in ("p", "h1", "h2", "h3", "tr", "li", "div", "section", "caption", "br"):
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1
        elif tag in ("td", "th"):
            self.parts.append(" | ")

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def report_figures(page: str) -> list[dict]:
    decoder = json.JSONDecoder()
    out = []
    for m in re.finditer(r"Plotly\.newPlot\(\s*", page):
        i = m.end()
        _, i = decoder.raw_decode(page, i)  # the div's id
        i = page.index(",", i) + 1
        while page[i].isspace():
            i += 1
        data, i = decoder.raw_decode(page, i)
        i = page.index(",", i) + 1
        while page[i].isspace():
            i += 1
        layout, _ = decoder.raw_decode(page, i)
        out.append(figure({"data": data, "layout": layout}))
    return out


def report_summary(page: str) -> dict:
    parser = _Text()
    parser.feed(page)
    lines = [re.sub(r"[ \t]+", " ", line).strip() for line in "".join(parser.parts).split("\n")]
    return {"text": [text(line) for line in lines if line], "figures": report_figures(page)}


def _cli(workdir: Path, args) -> dict:
    r = subprocess.run([sys.executable, "-m", "costlib", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    out = {"exit": r.returncode, "stdout": text(r.stdout).splitlines(), "stderr": text(r.stderr).splitlines()}
    out["stdout"] = [line.replace(str(workdir), "<tmp>") for line in out["stdout"]]
    return out


def run_watch_case(case: str, workdir: Path) -> dict:
    from costlib.answers.watch import shipped_policy_json
    from costlib.watch import sample

    name = case.split(":", 1)[1]
    policy, cases = workdir / sample.POLICY_FILE, workdir / sample.CASES_FILE
    policy.write_text(shipped_policy_json(), encoding="utf-8")
    cases.write_bytes(sample.watch_year_csv())
    args = ["watch", str(policy), str(cases), *("--time", "decided", "--score", "score", "--label", "outcome")]
    args += ["--group", "region", "--allow-unsigned", *WATCH_CASES[name]]  # the sample's policy is unsigned
    plain, as_json = _cli(workdir, args), _cli(workdir, [*args, "--json"])
    if as_json["exit"] in (0, 1):
        as_json["stdout"] = tree(json.loads("\n".join(as_json["stdout"])))
    return {"case": case, "text": plain, "json": as_json}


def run_cli_case(case: str, workdir: Path) -> dict:
    name = case.split(":", 1)[1]
    if name in WATCH_CASES:
        return run_watch_case(case, workdir)
    args = CLI_CASES[name]
    report, policy = workdir / f"{name}.html", workdir / f"{name}.json"

    def run(*extra):
        r = subprocess.run(
            [sys.executable, "-m", "costlib", "audit", *args, *extra],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=600,
        )
        return {"exit": r.returncode, "stdout": text(r.stdout).splitlines(), "stderr": text(r.stderr).splitlines()}

    plain = run("--report", str(report), "--policy", str(policy))
    as_json = run("--json")
    as_json["stdout"] = (
        tree(json.loads("\n".join(as_json["stdout"]))) if as_json["exit"] in (0, 1) else as_json["stdout"]
    )
    out = {"case": case, "text": plain, "json": as_json}
    out["report"] = report_summary(report.read_text(encoding="utf-8")) if report.exists() else None
    out["policy"] = tree(json.loads(policy.read_text(encoding="utf-8"))) if policy.exists() else None
    plain["stdout"] = [line.replace(str(workdir), "<tmp>") for line in plain["stdout"]]  # where it wrote
    return out


# --------------------------------------------------------------------------------------------
# Stored goldens


def path_for(case: str) -> Path:
    return GOLDEN_DIR / (case.replace(":", "__") + ".json")


def run_case(case: str, workdir: Path) -> dict:
    out = run_app_case(case) if case.startswith("app:") else run_cli_case(case, workdir)
    return json.loads(json.dumps(out, ensure_ascii=False))  # tuples as lists, as stored


def store(case: str, out: dict) -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    path_for(case).write_text(json.dumps(out, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")


def load(case: str) -> dict:
    return json.loads(path_for(case).read_text(encoding="utf-8"))


def first_difference(a, b, where: str = "") -> str | None:
    """Where two goldens first differ, as a path and both values (None when equal)."""
    if type(a) is not type(b):
        return f"{where}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{where}/{k}: only in {'new' if k in a else 'stored'}"
            d = first_difference(a[k], b[k], f"{where}/{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            d = first_difference(x, y, f"{where}[{i}]")
            if d:
                return d
        return None if len(a) == len(b) else f"{where}: length {len(a)} != {len(b)}"
    return None if a == b else f"{where}: {html.unescape(repr(a))[:400]} != {html.unescape(repr(b))[:400]}"


if __name__ == "__main__":
    import tempfile
    from concurrent.futures import ProcessPoolExecutor

    if "--record" not in sys.argv:
        sys.exit("usage: python tests/golden_harness.py --record [CASE-PREFIX ...]")
    prefixes = [a for a in sys.argv[1:] if a != "--record"]
    cases = [c for c in all_cases() if not prefixes or any(c.startswith(p) for p in prefixes)]
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import golden_harness  # by its module name: AppTest replaces __main__ while a page runs

    with tempfile.TemporaryDirectory() as tmp, ProcessPoolExecutor(2) as pool:
        runs = pool.map(golden_harness.run_case, cases, [Path(tmp)] * len(cases))
        for case, out in zip(cases, runs, strict=True):
            store(case, out)
            print("recorded", case, "exceptions:", out.get("exceptions"))
