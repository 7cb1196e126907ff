"""Beyond memory: exact answers where the rows live (DuckDB, Spark), aggregate files and the data folder."""
