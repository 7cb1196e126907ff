"""The command line: audit, train and aggregate."""
