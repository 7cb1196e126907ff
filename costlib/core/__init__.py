"""The core: the sweep kernel, prices, rules, settings (every bound), validation, errors and the dataset."""
