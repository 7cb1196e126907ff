"""The user's table, once parsed: a column mapping and the arrays it yields.

A `ColumnMapping` says which column plays which role. A `Dataset` holds the validated
numpy arrays that every page and every costlib call reads. Both are plain, immutable
values: a page never re-parses a file, it reads these fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

SPLIT_ROLES = ("train", "validation", "test")


#: the split role each purpose reads first (`Dataset.purpose_rows` says what else it reads)
PURPOSE_ROLES = {"fit": "train", "judge": "test", "calibrate": "validation"}


@dataclass(frozen=True)
class ColumnMapping:
    """Which column of the uploaded table plays which role (None: not used).

    label            binary label column (0/1, True/False, or words with `positive`)
    positive         the label value that means "positive", as text, when labels are words
    scores           one column per model; higher means more likely positive
    score_scale      "probability" (must lie in [0, 1]), "logit" (mapped by the sigmoid,
                     an explicit user choice) or "raw" (any real; cost pages only)
    group            group column for per-group prices and the fairness audit; several columns
                     (a tuple) audit their intersection (`group_columns`; a list or a tuple of
                     one is read as that one column, an empty one as None)
    split            column with train / validation / test per row
    weight           non-negative case weights
    delta            signed instance margin (sign = label, size = price of an error)
    votes_yes/no     annotator vote counts for and against the positive class
    rating, rating_midpoint             a rating scale and its neutral point
    measurement, measurement_threshold  a measurement z and the threshold tau
    class_label      multiclass label column (values are class names)
    class_probs      multiclass probability columns, one per class
    class_names      the class (label value) that each of `class_probs` stands for
    """

    label: str | None = None
    positive: str | None = None
    scores: tuple[str, ...] = ()
    score_scale: str = "probability"
    group: str | tuple[str, ...] | None = None
    split: str | None = None
    weight: str | None = None
    delta: str | None = None
    votes_yes: str | None = None
    votes_no: str | None = None
    rating: str | None = None
    rating_midpoint: float | None = None
    measurement: str | None = None
    measurement_threshold: float | None = None
    class_label: str | None = None
    class_probs: tuple[str, ...] = ()
    class_names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        group = self.group
        if group is not None and not isinstance(group, str):
            names = tuple(dict.fromkeys(str(c) for c in group))
            object.__setattr__(self, "group", None if not names else names[0] if len(names) == 1 else names)

    @property
    def group_columns(self) -> tuple[str, ...]:
        """The group columns, in the order given (empty without one).

        >>> ColumnMapping(group=("race", "sex")).group_columns, ColumnMapping(group=["sex"]).group
        (('race', 'sex'), 'sex')
        """
        if self.group is None:
            return ()
        return (self.group,) if isinstance(self.group, str) else tuple(self.group)


@dataclass(frozen=True, eq=False)
class Dataset:
    """A validated table. Arrays all have length `n_rows`; absent roles are None.

    y           int8 0/1 binary labels
    scores      model name -> float64 scores (probabilities when `probabilities` is True)
    groups      object array of group names (str), or None; with several group columns, each
                row's intersection group (`loading.intersections.intersection_key`)
    group_parts with several group columns, {intersection group: its value in each column, in
                the order of `mapping.group_columns`}; None for one group column or none
    split       object array with values in SPLIT_ROLES, or None
    weight      float64 non-negative weights, or None
    delta       float64 signed instance margins (from delta, votes, rating or measurement)
    y_class     int64 class index into `class_names` for multiclass, or None
    class_probs float64 (n_rows, K) probabilities, or None
    sweeps      model name -> `decision.ModelSweeps` for data known only by its counts (an
                aggregate file, a big file read through DuckDB): no rows at all; None for tables
    """

    name: str
    fingerprint: str
    n_rows: int
    mapping: ColumnMapping
    y: np.ndarray | None = None
    scores: dict[str, np.ndarray] = field(default_factory=dict)
    probabilities: bool = True
    groups: np.ndarray | None = None
    split: np.ndarray | None = None
    weight: np.ndarray | None = None
    delta: np.ndarray | None = None
    y_class: np.ndarray | None = None
    class_probs: np.ndarray | None = None
    class_names: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    sweeps: dict | None = None
    group_parts: dict | None = None

    @property
    def counts_only(self) -> bool:
        """True for data known by its counts only: pages that need rows say so."""
        return self.sweeps is not None

    def rows(self, role: str) -> np.ndarray:
        """Boolean mask of the rows in split `role` (read-only); every row when there is no split."""
        if self.split is None:
            return np.ones(self.n_rows, dtype=bool)
        return self._role_rows[role] if role in SPLIT_ROLES else self.split == role

    def has_role(self, role: str) -> bool:
        return self.split is not None and bool(self.rows(role).any())

    def purpose_rows(self, purpose: str) -> np.ndarray:
        """The rows that serve `purpose`, decided here for every page and command.

        "judge" (judge what was fitted): the test rows, else every row. "fit" (fit cutoffs): the
        train rows when the split has test rows too; with test rows but no train rows, the rows
        that are not test rows (the validation rows), if any; otherwise (no test rows, or only test
        rows) every row, the very rows judged, so that every page cross-fits as without a split:
        cutoffs fitted on some rows are never judged on rows that include them. "calibrate" (fit a
        temperature that pages then judge): the validation rows, else the train rows, else every
        row.

        >>> ds = Dataset(name="d", fingerprint="", n_rows=4, mapping=ColumnMapping(split="s"),
        ...              split=np.array(["train", "validation", "train", "validation"], dtype=object))
        >>> [ds.purpose_rows(p).tolist() for p in ("fit", "judge", "calibrate")]
        [[True, True, True, True], [True, True, True, True], [False, True, False, True]]
        """
        if purpose not in PURPOSE_ROLES:
            raise KeyError(purpose)
        everyone = np.ones(self.n_rows, dtype=bool)
        if purpose == "calibrate":
            role = next((r for r in ("validation", "train") if self.has_role(r)), None)
            return everyone if role is None else self.rows(role)
        if not self.has_role("test"):
            return everyone  # fit and judge on the same rows: the pages cross-fit
        if purpose == "judge":
            return self.rows("test")
        if self.has_role("train"):
            return self.rows("train")
        rest = ~self.rows("test")
        return rest if rest.any() else everyone

    @cached_property
    def _role_rows(self) -> dict[str, np.ndarray]:
        # compared once per dataset: the split column is text, and pages ask on every rerun
        out = {}
        for role in SPLIT_ROLES:
            mask = self.split == role
            mask.flags.writeable = False
            out[role] = mask
        return out
