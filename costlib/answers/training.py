"""The answer of the Train with costs page."""

from __future__ import annotations

import pandas as pd

from costlib.training import words as training_words


def training_verdict_kind(summary: pd.DataFrame) -> str:
    """The colour of the training verdict: "success" when a way of training with costs beats
    standard training beyond the noise (its whole interval of NEC change is below 0), else "info"."""
    better = summary.loc[summary["method"] != "standard", "nec_change_high"].lt(0).any()
    return "success" if better else "info"


def training_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The training table as read: four decimals for shares and errors, a percent for changes (a
    decrease with the minus sign U+2212, which no spreadsheet reads as a formula), "–" where a
    number does not apply (standard training's change against itself, a classifier's δ error).
    The CSV download keeps every digit."""
    out = frame.copy()
    itself = frame["method"].eq("standard") if "method" in frame else pd.Series(False, index=frame.index)
    for col in frame.columns:
        if col.startswith("nec_change"):
            cells = [f"{x:.1%}".replace("-", "\u2212") if pd.notna(x) else "–" for x in frame[col]]
            out[col] = ["–" if same else c for same, c in zip(itself, cells, strict=True)]
        elif col.startswith(("nec", "error_rate", "delta_mae")):
            out[col] = [f"{x:.4f}" if pd.notna(x) else "–" for x in frame[col]]
    if "method" in out:
        out["method"] = [training_words.method_label(m) for m in out["method"]]
    return out.rename(columns=training_words.COLUMN_WORDS)
