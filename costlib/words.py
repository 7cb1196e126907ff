"""Plain-words sentences for people who set prices, not statistics.

Every page states in one sentence what its numbers mean for the decision; the sentences
are built here from computed numbers so that tests can check them and pages stay thin.
"""

from __future__ import annotations

import math

import pandas as pd

CURRENCY_SYMBOLS = ("$", "€", "£", "¥", "₹", "CHF")


def money(amount: float, unit: str = "", *, digits: int = 2) -> str:
    """'$3.10', '3.10 minutes', '-$0.50' or '3.10' (no unit)."""
    if amount is None or (isinstance(amount, float) and math.isnan(amount)):
        return "n/a"
    unit = (unit or "").strip()
    sign = "-" if amount < 0 else ""
    body = f"{abs(amount):,.{digits}f}"
    if not unit:
        return f"{sign}{body}"
    if unit in CURRENCY_SYMBOLS:
        return f"{sign}{unit}{body}"
    return f"{sign}{body} {unit}"


def per_month(per_case: float, volume: float | None, unit: str = "") -> str:
    """' (about $3,100.00 a month at 1,000 cases a month)' or '' without a volume."""
    if not volume or volume <= 0 or per_case is None or math.isnan(per_case):
        return ""
    return f" (about {money(per_case * volume, unit)} a month at {volume:,.0f} cases a month)"


def cost_verdict(table: pd.DataFrame, *, unit: str = "", volume: float | None = None,
                 all_groups: str = "all groups") -> tuple[str, bool]:
    """(sentence, model_is_useless) from a rules table's "all groups" rows.

    The best rule is the cheapest rule other than "flag nobody"; if it is no cheaper than
    flagging nobody, the model should not be making these decisions at these prices.
    """
    rows = table[table["group"] == all_groups].set_index("rule")["cost_per_100"] / 100.0
    nobody = float(rows.get("flag nobody", float("nan")))
    others = rows.drop(index="flag nobody", errors="ignore").dropna()
    if others.empty or math.isnan(nobody):
        return "Not enough data to compare the rules with flagging nobody.", False
    best_rule = str(others.idxmin())
    best = float(others.min())
    if best >= nobody - 1e-12:
        return (
            f"At these prices the best rule ({best_rule}, {money(best, unit)} per case) is no cheaper than "
            f"flagging nobody ({money(nobody, unit)} per case): the model should not be making these "
            "decisions at these prices.",
            True,
        )
    saving = nobody - best
    return (
        f"At these prices the best rule ({best_rule}) costs {money(best, unit)} per case and saves "
        f"{money(saving, unit)} per case over flagging nobody{per_month(saving, volume, unit)}.",
        False,
    )


def value_verdict(value: float, *, k: float, reject_value: float = 0.0, tau: float | None = None,
                  unit: str = "", unit_value: float | None = None, volume: float | None = None,
                  name: str = "the model") -> str:
    """One sentence on whether the model beats not using it at this k."""
    if value is None or math.isnan(value):
        return "Not enough data to value the model."
    gain = value - reject_value
    where = f" answering when its confidence is at least {tau:.3f}" if tau is not None and math.isfinite(tau) else ""
    if tau is not None and not math.isfinite(tau):
        return (f"At k = {k:g} the best choice is to answer nothing: every confidence threshold loses against "
                f"not using {name}.")
    scale = unit_value if unit_value else 1.0
    money_gain = money(gain * scale, unit if unit_value else "", digits=3 if not unit_value else 2)
    month = per_month(gain * scale, volume, unit) if unit_value else ""
    if gain > 1e-12:
        return (f"At k = {k:g} {name}{where} is worth {money_gain} per case more than not using it"
                f"{month}.")
    return (f"At k = {k:g} {name}{where} is worth no more than not using it ({money_gain} per case): "
            "it should not decide these cases on its own at this price of a wrong answer.")


def cutoff(threshold: float) -> str:
    """A cutoff as text: '0.4742', 'flag nobody' (+inf) or 'varies by group' (NaN)."""
    if threshold is None or (isinstance(threshold, float) and math.isnan(threshold)):
        return "varies by group"
    if threshold == math.inf:
        return "flag nobody"
    return f"{threshold:.4g}"


_MD_SPECIAL = set("\\`*_{}[]()#+-.!|<>~$:=&")


def md_escape(text: str) -> str:
    """Text shown literally by a Markdown renderer (Streamlit's included).

    Every Markdown, HTML, LaTeX ($...$), emoji-shortcode (:name:) and colour-directive
    character is backslash-escaped, so a user's column name, group, file name or unit is
    shown as typed and never renders as a link, an image, math or HTML.
    """
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in str(text))


def plain(text: str) -> str:
    """User text for Plotly titles, legends and hovers (which read a few HTML tags)."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def cutoffs_sentence(rule: str, cutoffs: dict, *, fitted_on: str = "train") -> str:
    """'The cost-optimal rule, fitted on the train rows, flags A when the score is at least
    0.625, flags nobody in B, and flags C at 0.323 or more.' (the answer, in words)."""
    parts = []
    for group, t in cutoffs.items():
        if t == math.inf:
            parts.append(f"flags nobody in {group}")
        elif t is None or (isinstance(t, float) and math.isnan(t)):
            parts.append(f"has no cutoff for {group}")
        else:
            parts.append(f"flags {group} at a score of {t:.4g} or more")
    joined = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"The {rule} rule, fitted on the {fitted_on} rows, {joined}."


def value_leaders(table: pd.DataFrame, *, k: float) -> str:
    """Which model is worth most at this k, at its best threshold and at tau* = k/(k+1).

    `table` is value.value_table's output (one row per model)."""
    if len(table) < 2:
        return ""
    t = table.set_index("model")
    best, star = t["value at best tau"].idxmax(), t["value at tau*"].idxmax()
    head = (f"At k = {k:g}, {best} is worth the most when each model answers at its best threshold "
            f"({t.loc[best, 'value at best tau']:.4f} per case)")
    if star == best:
        return head + f", and also at the formula threshold τ* = k/(k+1) ({t.loc[star, 'value at tau*']:.4f})."
    return (head + f"; at the formula threshold τ* = k/(k+1), which trusts the probabilities, {star} is worth "
            f"more ({t.loc[star, 'value at tau*']:.4f} against {t.loc[best, 'value at tau*']:.4f}).")
