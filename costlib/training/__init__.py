"""Training with instance costs: the comparison of methods, its data and its figures (its words are
in `costlib.present.training_words`)."""
