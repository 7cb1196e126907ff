"""How a training comparison splits its rows: the one home of the shares that the training
(`training.compare.training_split`) and the correction of its intervals over seeds
(`training.summary.resplit_ratio`) both read."""

SPLIT = (0.8, 0.1, 0.1)  # train / validation / test, per class
