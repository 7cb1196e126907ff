"""`policy_estimator`: a policy inside the scikit-learn model that serves it, once a reviewer
signed it off: a ``FixedThresholdClassifier`` for one cutoff, a `PolicyClassifier`
(`costlib.handoff.estimator`) for a cutoff per group. scikit-learn is imported only when a model
is wrapped."""

from __future__ import annotations

from costlib.core.errors import DataError
from costlib.handoff.policy import MSG_RANDOM, check_column, check_fitted, logit_cutoff, positive_label, signed_cutoffs
from costlib.handoff.randomised import MSG_IN_ESTIMATOR
from costlib.loading.messages import q
from costlib.loading.policy_cutoffs import PolicyCutoffs

RESPONSE = {"probability": "predict_proba", "logit": "decision_function"}
MSG_RESPONSE = (
    "The policy's cutoffs are on {scale} scores, which a model gives by {want}, not {given}: leave "
    "response_method out, or give a policy chosen on {given}'s scores."
)


def response_method_of(p: PolicyCutoffs, given: str | None, estimator) -> str:
    """The method whose scores the policy's cutoffs apply to (`RESPONSE`); DataError when `given`
    contradicts the policy's scale or the model lacks it."""
    if given is not None and given not in ("predict_proba", "decision_function"):
        raise ValueError(f'response_method must be "predict_proba" or "decision_function": got {given!r}')
    want = RESPONSE.get(p.scale)
    if given is not None and want is not None and given != want:
        raise DataError(MSG_RESPONSE.format(scale=p.scale, want=want, given=given))
    method = given or want or "decision_function"
    if not hasattr(estimator, method):
        raise DataError(
            f"The model {type(estimator).__name__} has no {method}, which gives the {p.scale} scores the policy's "
            "cutoffs are on."
        )
    return method


def policy_estimator(
    policy,
    estimator,
    *,
    group: str | int | None = None,
    response_method: str | None = None,
    allow_unsigned: bool = False,
):
    """A fitted scikit-learn classifier whose ``predict`` is what `policy` decides on
    `estimator`'s scores, once a reviewer signed it off (`costlib.present.signing`).

    Parameters
    ----------
    policy : str, os.PathLike or mapping
        As for `apply_policy`.
    estimator : fitted scikit-learn classifier
        The model whose positive-class score the policy's cutoffs apply to.
    group : str or int, optional
        The column of ``X`` that holds each case's group: a DataFrame's by its name, which must
        be the policy's group column, or an array's by its index. Needed when the policy has a
        cutoff per group. It is handed to `estimator` when the model was fitted on it (a
        feature: the model's ``feature_names_in_`` hold it, or, fitted on an array, the model
        reads as many columns as ``X`` has), else dropped.
    response_method : {"predict_proba", "decision_function"}, optional
        Which score: the positive class's probability for a policy on probabilities, the
        decision function for log-odds (another is refused); either for raw scores (default:
        the decision function).

    Returns
    -------
    sklearn.model_selection.FixedThresholdClassifier or PolicyClassifier
        A ``FixedThresholdClassifier`` when the policy has one cutoff for everybody and no
        `group` is named (on log-odds its threshold is `logit_cutoff`, so it decides exactly as
        the sigmoid would); else a `costlib.handoff.estimator.PolicyClassifier`. Either is
        fitted (``check_is_fitted`` passes) and predicts the policy's positive class where
        `apply_policy` flags the case, the other class elsewhere.

    Raises
    ------
    DataError
        As `apply_policy`; `signed_cutoffs`'s sentence for a policy not signed off (unsigned,
        unchecked, rejected, altered, sealed with another key); and for a model that is not
        fitted, has other than two classes, lacks the policy's positive outcome or the method
        its scores come from, or a group column other than the policy's.
    """
    p = signed_cutoffs(policy, allow_unsigned=allow_unsigned)
    if p.random_share is not None:
        raise DataError(MSG_RANDOM.format(share=p.random_share, rule=q(p.rule)))
    if p.randomised:
        raise DataError(MSG_IN_ESTIMATOR)
    check_fitted(estimator)
    pos = positive_label(estimator.classes_, p.positive)
    method = response_method_of(p, response_method, estimator)
    if isinstance(group, str):  # an array's column, by its index, has no name to check
        check_column(p, "group", group)
    if group is None:
        one = p.cutoff_without_groups()  # else the sentence that asks for the group column
        from sklearn.model_selection import FixedThresholdClassifier

        threshold = logit_cutoff(one) if p.scale == "logit" else one
        # pos_label only when the policy's positive class is not scikit-learn's own (the second),
        # so that a clone refits on any labels (check_estimator's, or words)
        pos_label = None if pos == estimator.classes_[1] else pos
        out = FixedThresholdClassifier(estimator, threshold=threshold, pos_label=pos_label, response_method=method)
        out.estimator_ = estimator  # fitted already: what fit would set, so check_is_fitted holds
        return out
    names = getattr(estimator, "feature_names_in_", None)
    keep = "auto" if names is None else group in list(names)  # "auto": by the width of X (a model fitted on an array)
    from costlib.handoff.estimator import PolicyClassifier

    return PolicyClassifier(
        estimator, policy=p, group=group, response_method=method, keep_group=keep, allow_unsigned=allow_unsigned
    )
