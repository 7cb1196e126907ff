"""Statistics shared by every answer: the bootstrap (of sweep cells and of rows) and the percentile interval."""
