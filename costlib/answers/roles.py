"""What a dataset can feed: the role each page needs, and the sentences about what is missing
(the Data page and every page's fallback to a built-in sample read them)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from costlib.answers.remembering import compute_now
from costlib.binary.model_sweeps import SINGLE_GROUP
from costlib.core.dataset import ColumnMapping, Dataset
from costlib.loading.messages import RAW_NOT_PROBABILITIES, REFUSED_MULTICLASS
from costlib.present import labels
from costlib.present.labels import NEEDS, REFUSED, missing

# the pages a dataset can feed, with the role each needs
PAGE_ROLES = (
    (labels.PAGE_COSTS, "binary"),
    (labels.PAGE_PRICES, "binary"),
    (labels.PAGE_VALUE, "value"),
    (labels.PAGE_MATRIX, "multiclass"),
    (labels.PAGE_INSTANCE, "delta"),
    (labels.PAGE_CALIBRATION, "probabilities"),
)


def has_role(ds: Dataset, role: str) -> bool:
    """Whether `ds` has what a page of `role` needs (a key of `labels.NEEDS`)."""
    if ds.counts_only:  # sweeps only: what can be read from counts per distinct score
        return role == "binary" or (role == "value" and ds.probabilities)
    if role == "value":
        return has_role(ds, "probabilities")
    if role == "binary":
        return ds.y is not None and bool(ds.scores)
    if role == "probabilities":
        return has_role(ds, "binary") and ds.probabilities
    if role == "multiclass":
        return ds.class_probs is not None and ds.y_class is not None
    if role == "delta":
        return ds.delta is not None and bool(ds.scores)
    raise KeyError(role)


def group_names(ds: Dataset, *, remember=compute_now) -> list:
    """The groups of `ds`, sorted by their text; one group, `SINGLE_GROUP`, when no group column
    is mapped. A counted dataset's are its counts' groups, in their order.

    `remember` is ``remember(name, key, compute)`` (a page's memo: the sort is made once per
    data set, under ``("group_names", ())``); the default sorts now.
    """
    if ds.counts_only:
        return list(next(iter(ds.sweeps.values())).groups)
    if ds.groups is None:
        return [SINGLE_GROUP]
    import pandas as pd

    return list(remember("group_names", (), lambda: tuple(sorted(pd.unique(ds.groups).tolist(), key=str))))


def refused_sentence(mapping: ColumnMapping, refused: Mapping[str, Sequence[str]] | None) -> str:
    """Why the columns nearest to each role `mapping` leaves empty were not taken ("" when
    none was near).

    `refused` is `loading.refusals` of the file's guess: the loader's own sentences, the
    ones it says when such a column is chosen by hand. Only the roles `mapping` leaves empty
    are said (a label or a score chosen by hand makes the guess's refusal moot).

    Examples
    --------
    >>> refused_sentence(ColumnMapping(scores=("p",)), {"label": ['In "f.csv", column "y" has 3 values.']})
    'Not taken as the label: in "f.csv", column "y" has 3 values.'
    """
    empty = {
        "multiclass": not (mapping.class_label and mapping.class_probs),  # both mapped: `prepare` says what is wrong
        "label": not mapping.label,
        "scores": not mapping.scores,
        "group": not mapping.group,
    }  # in this order: a file that looks as if it had more than two classes is told that reading's problem first
    headings = {"multiclass": REFUSED_MULTICLASS, **REFUSED}
    parts = [
        headings[role] + " " + " ".join(s[:1].lower() + s[1:] for s in (refused or {}).get(role, ()))
        for role in empty
        if (refused or {}).get(role) and empty[role]
    ]
    return " ".join(parts)


def loaded_sentence(
    ds: Dataset, shown_name: str, refused: Mapping[str, Sequence[str]] | None = None
) -> tuple[str, str]:
    """(kind, sentence) after an upload: which pages now use it, what the others need, and
    why the columns nearest to a role it lacks were not taken (`refused`, from
    `loading.refusals`; see `refused_sentence`)."""
    usable = [page for page, role in PAGE_ROLES if has_role(ds, role)]
    others = [page for page, role in PAGE_ROLES if not has_role(ds, role)]
    why = refused_sentence(ds.mapping, refused) if not ds.counts_only else ""
    why = " " + why if why else ""
    if not usable:
        need = missing(ds, "binary") or NEEDS["binary"][0]
        return "warning", (
            f"Loaded “{shown_name}”, but no page can use it yet: it lacks {need}.{why} Map the columns again "
            "below; until then the pages draw on built-in samples."
        )
    text = f"Loaded “{shown_name}”. {listed(usable)} now {'uses' if len(usable) == 1 else 'use'} it."
    unweighted = [page for page, role in PAGE_ROLES if has_role(ds, role) and role not in labels.WEIGHTED_ROLES]
    if ds.weight is not None and unweighted:
        text += " " + labels.UNWEIGHTED_PAGES.format(pages=listed(unweighted))
    # pages that need probabilities where the scores were read as raw scores: that is the reason, not a column
    raw = [page for page, role in PAGE_ROLES if page in others and role in ("probabilities", "value")]
    raw = raw if has_role(ds, "binary") and not ds.probabilities and not ds.counts_only else []
    lacking = [page for page in others if page not in raw]
    if raw:
        text += " " + RAW_NOT_PROBABILITIES.format(pages=listed(raw))
        text += f"; {listed(lacking)} {_need(lacking)} columns it does not have." if lacking else "."
        text += " These pages draw on built-in samples."
    elif others:
        need, draw = ("needs", "draws") if len(others) == 1 else ("need", "draw")
        text += f" {listed(others)} {need} columns it does not have, and {draw} on built-in samples."
    # the two pages that read files of their own: what they do with this one
    now = f"; the cutoff {labels.PAGE_COSTS} recommends now for this file can be the one it checks"
    text += (
        f" {labels.PAGE_TRAIN} does not use it: it trains on a table of its own, with the features to train on, "
        f"uploaded there. {labels.PAGE_WATCH} checks a shipped cutoff on a later file of cases with dates, "
        f"uploaded there{now if has_role(ds, 'binary') else ''}."
    )
    return "success", text + (why if raw or others else "")


def unweighted_note(ds: Dataset, role: str | None) -> str | None:
    """What a page needing `role` says beside a file with a weight column when it counts each row
    once (`labels.UNWEIGHTED_PAGE`); None otherwise (no weights, or a page that reads them)."""
    if ds.weight is None or role is None or role in labels.WEIGHTED_ROLES:
        return None
    return labels.UNWEIGHTED_PAGE


def listed(pages: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    return pages[0] if len(pages) == 1 else ", ".join(pages[:-1]) + " and " + pages[-1]


def _need(pages) -> str:
    """ "needs" after one page's name, "need" after several ("Cost matrix needs columns ...")."""
    return "needs" if len(pages) == 1 else "need"
