"""Training with instance costs: the comparison of methods, its data, its words and its figures."""
