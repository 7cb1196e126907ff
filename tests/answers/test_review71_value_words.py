"""Review 71: the Value page with its details on showed a product manager formula notation: columns
"worth at τ* before / after", "which τ* = k/(k+1) assumes", inputs "A false positive costs (k_fp)", a
legend "p_recid (formula threshold k/(k+1))" and "p ≥ (k_fp + r)/(k_tp + k_fp)". It now says them in the
page's own words (the formula threshold, the threshold from prices alone). This reads everything the page
shows, every sample, at the page's default prices and at dear misses with a case handed over worth something."""

import json

import pytest

from tests.views.apptest_support import open_app, unescape

NOTATION = ("τ", "tau", "k_fp", "k_fn", "k_tp", "k/(k", "(k+", "(k−", "p ≥", "1 − p", "reject option")
SETTINGS = {
    "default": {},
    "dear_misses": {"c_fp": "2", "c_fn": "7", "unit": "€", "volume": "2500", "handover_worth": "0.5"},
}


def _chart_words(spec: dict) -> list[str]:
    layout = spec.get("layout", {})
    out = [str((layout.get("title") or {}).get("text", ""))]
    for axis in ("xaxis", "yaxis"):
        out.append(str(((layout.get(axis) or {}).get("title") or {}).get("text", "")))
        out += [str(x) for x in (layout.get(axis) or {}).get("ticktext") or ()]
    out += [str(a.get("text", "")) for a in layout.get("annotations") or ()]
    for trace in spec.get("data", []):
        out += [str(trace.get("name", "")), str(trace.get("hovertemplate", ""))]
        text = trace.get("text")
        out += [str(x) for x in text] if isinstance(text, list) else [str(text or "")]
    return out


def _shown(at) -> list[str]:
    """Every piece of text the page shows: Markdown, captions, alerts, widget labels and help, expanders'
    labels, tables' columns and cells, charts' titles, axes, legends, notes and hover."""
    said = []
    for node in at._tree:  # every element and block, depth first
        said += _node_words(node)
    return [unescape(s) for s in said if s]


def _node_words(node) -> list[str]:
    out = []
    for attr in ("label", "body", "help", "value", "options"):
        try:
            value = getattr(node, attr)
        except Exception:
            continue
        if hasattr(value, "columns"):  # a table: its columns and its cells
            out += [str(c) for c in value.columns]
            out += [str(x) for x in value.astype(str).to_numpy().ravel()]
        elif isinstance(value, str):
            out.append(value)
        elif isinstance(value, (list, tuple)):
            out += [str(x) for x in value]
    if getattr(node, "type", "") == "plotly_chart":
        out += _chart_words(json.loads(node.proto.spec))
    for child in getattr(node, "children", {}).values():
        out += _node_words(child)
    return out


@pytest.mark.parametrize("prices", SETTINGS)
@pytest.mark.parametrize("sample", ["compas", "screening", "tickets", "offensive"])
def test_the_value_page_with_details_shows_no_formula_notation(sample, prices):
    at = open_app(sample, "views/value.py", timeout=300, details="true", **SETTINGS[prices])
    shown = _shown(at)
    assert any("formula threshold" in s for s in shown)  # the details are on: the words that replace it are there
    said = sorted({(word, s[:160]) for s in shown for word in NOTATION if word in s})
    assert not said, said
