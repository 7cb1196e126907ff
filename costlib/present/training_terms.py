"""What the Train with costs page's technical terms mean, one sentence each, folded away under its
answer as on Instance costs (`labels.INSTANCE_TERMS` names the box on both): each plain name the
page uses beside its symbol (a case's price δ, the cost-weighted error NEC), the ways of training
and their names in the literature, the model and its settings, a seed and its rows, the interval
over seeds and the change's, "beyond the noise" and the held-out R²."""

from __future__ import annotations

TRAIN_TERMS = (
    "A case's price, δ (its instance cost): its signed margin. Its sign is the label (positive when δ > 0) and its "
    "size |δ| how costly a mistake on the case is.",
    "The cost-weighted error, NEC (normalized excess cost): the sum of |δ| over the mistakes divided by the sum of "
    "|δ| over every test case, so the share of the mistake cost: 0 is perfect, 0.5 a coin flip, 1 always wrong; it "
    "equals the error rate when every case costs the same. The cost per case is it times the price of a typical "
    "mistake, so a change in cost is the same percent as a change in NEC.",
    "The ways of training: standard (the labels only); price-weighted (|δ|-weighted: each case's loss weighted by "
    "its price); cost-proportional upsampling (costly cases drawn more often); top 30%, 50% or 70% (keeping the "
    "costliest 30%, 50% or 70% of the training cases and every case tied at the cut, the cheaper cases left out: "
    'where many cases share a price this keeps more, the name then says "+ ties" and the share kept); price '
    "regression (regressing δ: a regression predicts each case's signed price δ itself, and a case is flagged "
    "when the prediction is above 0).",
    "The model: every way trains a logistic regression (LogisticRegression(C=1, max_iter=1000) in scikit-learn), "
    "price regression a ridge regression (Ridge(alpha=1)).",
    "A seed: one random 80/10/10 split of the rows into training, validation (set aside) and test rows; every way "
    "of training is judged on the same test rows of a seed, and the page shows the mean over the seeds. Under "
    "Every seed, the rows fitted on are the training rows a way kept (upsampling counts a row each time it is "
    "drawn), and the rows priced 0 have no label and are left out before the split.",
    "95% interval over the seeds: a range built so that, in about 95 of 100 data sets like this one, it holds the "
    "true value; widened because the seeds re-split the same rows (Nadeau and Bengio's correction, 2003: the "
    "corrected resampled t interval, the spread over J seeds scaled by √(1/J + test rows / training rows) in "
    "place of √(1/J)). The change against standard training is a ratio: a way's mean cost over the seeds divided "
    "by standard training's, less one (−31% is 31% cheaper), and its interval comes from the delta method for "
    "that ratio, widened for the seeds in the same way; it stops at a saving of the whole cost (−100%), since no "
    "cost is below 0.",
    "Beyond the noise: the whole 95% interval of a way's change against standard training is on one side of 0. "
    "With more than one way of training with costs, the verdict picks the cheapest on the same test rows, so "
    "every way's interval (the verdict's, the change chart's and the table's) is widened for that pick "
    "(Bonferroni: the normal quantile of 1 − 0.025 / m for m ways in place of 1.96); the CSV also keeps each "
    "way's own interval.",
    "Held-out R² of |δ|: the share of the spread of the cases' prices that a regression on the features predicts "
    "on test rows: 1 fully, 0 or below not at all. Training with costs pays only where the costly cases need a "
    "different decision boundary (where in the features the model's answer turns from negative to positive).",
)
