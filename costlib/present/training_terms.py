"""What the Train with costs page's technical terms mean, one sentence each, folded away under its
answer as on Instance costs (`labels.INSTANCE_TERMS` names the box on both): δ, NEC, the ways
of training, a seed, the interval over seeds, "beyond the noise" and the held-out R²."""

from __future__ import annotations

TRAIN_TERMS = (
    "δ (a case's instance cost): its signed margin. Its sign is the label (positive when δ > 0) and its size |δ| "
    "how costly a mistake on the case is.",
    "NEC (normalized excess cost), the weighted error: the sum of |δ| over the mistakes divided by the sum of |δ| "
    "over every test case, so the share of the mistake cost: 0 is perfect, 0.5 a coin flip, 1 always wrong; it "
    "equals the error rate when every case costs the same.",
    "The ways of training: standard (the labels only); |δ|-weighted (each case's loss weighted by its price); "
    "cost-proportional upsampling (costly cases drawn more often); keeping the costliest 30%, 50% or 70% (the "
    "cheaper cases left out, every case tied at the cut kept); regressing δ (a regression predicts δ itself, and "
    "a case is flagged when the prediction is above 0).",
    "A seed: one random 80/10/10 split of the rows into training, validation (set aside) and test rows; every way "
    "of training is judged on the same test rows of a seed, and the page shows the mean over the seeds.",
    "95% interval over the seeds: a range built so that, in about 95 of 100 data sets like this one, it holds the "
    "true value; widened because the seeds re-split the same rows (Nadeau and Bengio's correction, 2003).",
    "Beyond the noise: the whole 95% interval of a way's change against standard training is on one side of 0.",
    "Held-out R² of |δ|: the share of the spread of the cases' prices that a regression on the features predicts "
    "on test rows: 1 fully, 0 or below not at all.",
)
