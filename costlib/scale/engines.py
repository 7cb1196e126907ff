"""Where the rows live: DuckDB (embedded, the default) or Spark, behind the same few calls.

costlib's out-of-core code (:mod:`costlib.scale.scans` and the modules it uses) needs only this from an engine:

- ``sql(text) -> pandas.DataFrame``: run a query whose result is small (bins, groups);
- ``register(name, table)`` / ``drop(name)``: a small pyarrow table (survivors, cutoffs)
  as a view that queries can join;
- ``columns(view)``: the names and types of a view's columns, to check the column roles;
- ``quote(name)``: a user's column name as an identifier.

The SQL text that :mod:`costlib.scale.scans` sends is the same for both engines; only the
identifiers in the first view (the user's column names) are quoted differently. Sources
(:mod:`costlib.scale.sources`): a Parquet or CSV path or glob (or a list of them), a query
string (DuckDB SQL, or Spark SQL with ``engine="spark"``), a pandas DataFrame or pyarrow Table,
or a ``pyspark.sql.DataFrame``.

DuckDB runs with a memory limit (``COSTLIB_DUCKDB_MEMORY_LIMIT``, default ``1GB``) and a
temporary directory of its own for what does not fit (``COSTLIB_DUCKDB_TEMP``, default a new
directory under the system's temporary directory, removed on close), so the rows are never
held in memory. It installs and loads no extension, and once `DuckDBEngine.open` knows the
source it opens no file but those the source names (`costlib.scale.access.limit_access`: a
query's quoted paths and the matches of its patterns, a path source's files), locked so no
statement can undo it. Spark is started by :mod:`costlib.scale.spark`; a query source on Spark
passes its gate, `sql_gate.spark_select`. Which files a query reads, before it runs, is
:mod:`costlib.scale.query_files`'s; a path pattern's listing is bounded by
:mod:`costlib.scale.listing`.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
import uuid

import pandas as pd

from costlib.core.errors import DataError
from costlib.scale.access import NO_EXTENSIONS, first_line, limit_access, refused_sentence
from costlib.scale.listing import named_paths
from costlib.scale.sources import (
    MSG_SOURCE_TYPE,
    check_paths,
    describe_source,
    local_files,
    source_paths,
)
from costlib.scale.spark import is_spark_frame, quiet_spark, spark_session
from costlib.scale.sql_gate import read_only_select, spark_select

ENGINES = ("duckdb", "spark")
MSG_ENGINE = "engine must be one of {valid}: got {value!r}"
MSG_SOURCE_FAILED = "The source {what} could not be read: {reason}"
MSG_QUERY_FAILED = "{engine} could not run costlib's query on the source: {reason}"

PERFECT_HASH_BITS = 21  # DuckDB's perfect hash aggregate up to this many key bits (its default is 12)
MAX_DOUBLE = "1.7976931348623157e308"  # the largest finite double: ABS(x) <= it is false for NaN and infinity

# column kinds as costlib sees them
KIND_BOOL, KIND_INT, KIND_FLOAT, KIND_DECIMAL, KIND_TEXT, KIND_OTHER = (
    "bool",
    "int",
    "float",
    "decimal",
    "text",
    "other",
)


def _kind(type_name: str) -> str:
    t = type_name.strip().lower()
    if t in ("boolean", "bool"):
        return KIND_BOOL
    if t in (
        "tinyint",
        "smallint",
        "integer",
        "int",
        "bigint",
        "hugeint",
        "utinyint",
        "usmallint",
        "uinteger",
        "ubigint",
        "uhugeint",
        "long",
        "short",
        "byte",
    ):
        return KIND_INT
    if t in ("float", "double", "real"):
        return KIND_FLOAT
    if t.startswith("decimal"):
        return KIND_DECIMAL
    if t in ("varchar", "string", "text") or t.startswith(("varchar", "char")):
        return KIND_TEXT
    return KIND_OTHER


def unique_name(prefix: str) -> str:
    """A view name no user table can have (one per call, so calls never collide)."""
    return f"costlib_{prefix}_{uuid.uuid4().hex[:12]}"


def sql_double(x: float) -> str:
    """A DOUBLE literal for both engines (a bare 0.5 is a DECIMAL to some SQL dialects).

    >>> sql_double(0.5), sql_double(1e300)
    ('(0.5e0)', '(1e+300)')
    """
    text = repr(float(x))
    return f"({text if 'e' in text or 'inf' in text or 'nan' in text else text + 'e0'})"


def _sql_string(text: str) -> str:
    """A string literal for both engines' SQL (no backslashes allowed: Spark reads them as escapes)."""
    if "\\" in text:
        raise DataError(f'The source path "{text}" contains a backslash; use forward slashes.')
    return "'" + text.replace("'", "''") + "'"


DUCKDB_MEMORY_ENV = "COSTLIB_DUCKDB_MEMORY_LIMIT"
DUCKDB_MEMORY_DEFAULT = "1GB"
_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12, "kib": 2**10, "mib": 2**20}
_UNITS |= {"gib": 2**30, "tib": 2**40}


def duckdb_memory_limit() -> str:
    """DuckDB's memory limit for one scan, in DuckDB's words ("1GB"): $COSTLIB_DUCKDB_MEMORY_LIMIT
    when it reads as an amount, else `DUCKDB_MEMORY_DEFAULT`."""
    raw = os.environ.get(DUCKDB_MEMORY_ENV, "").strip()
    return raw if raw and _amount(raw) is not None else DUCKDB_MEMORY_DEFAULT


def duckdb_memory_bytes() -> int:
    """`duckdb_memory_limit` in bytes: what a scan may take, which the dashboard's memory ledger
    reserves while it runs.

    Examples
    --------
    >>> _amount("1GB"), _amount("512 MiB"), _amount("lots")
    (1000000000, 536870912, None)
    """
    return _amount(duckdb_memory_limit()) or _amount(DUCKDB_MEMORY_DEFAULT)


def _amount(text: str) -> int | None:
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", text)
    if m is None or m.group(2).lower() not in _UNITS:
        return None
    return int(float(m.group(1)) * _UNITS[m.group(2).lower()])


class DuckDBEngine:
    """DuckDB in this process, with a memory limit and a spill directory of its own, no
    extensions, and, once `open` knows the source's files, no file but those (`limit_access`)."""

    name = "duckdb"
    # SQL for a double's IEEE 754 bits as a BIGINT (DuckDB casts a number to BIT as its bits):
    # the score bins are read from them (`binning.bin_sql`), without a logarithm per row
    float_bits = "CAST(CAST({} AS BIT) AS BIGINT)"
    # the SQL type of the first pass's bin codes (`binning.near_bin_sql`): 16 bits, unsigned, so that
    # DuckDB knows their range and counts them in its perfect hash aggregate
    code_type = "USMALLINT"
    # whether a result is cheaper sorted here (`ORDER BY`) than in numpy afterwards: DuckDB sorts
    # 2.8 million statistics rows in 0.1 to 0.2 s of CPU where `np.lexsort` took 0.7 (`score_stats`)
    sorts_cheaply = True

    def __init__(self):
        import duckdb

        self._tmp = os.environ.get("COSTLIB_DUCKDB_TEMP") or tempfile.mkdtemp(prefix="costlib-duckdb-")
        self._own_tmp = "COSTLIB_DUCKDB_TEMP" not in os.environ
        config = {
            "memory_limit": duckdb_memory_limit(),
            "temp_directory": self._tmp,
            "preserve_insertion_order": False,
            # counts by keys of 21 bits or fewer (a group of up to 16 integer values, the label and a
            # 16-bit bin code: the scans' first pass) go to a table indexed by the keys, not hashed
            # (2**21 counters, 16 MB a thread)
            "perfect_ht_threshold": PERFECT_HASH_BITS,
            **NO_EXTENSIONS,
        }
        self.con = duckdb.connect(":memory:", config=config)
        self._error = duckdb.Error
        self._limited = False  # `limit_access` has locked the connection
        self.source_words = "the source"  # what `open` read, for sentences

    @staticmethod
    def quote(name: str) -> str:
        return '"' + str(name).replace('"', '""') + '"'

    def sql_arrow(self, text: str):
        try:
            return self.con.sql(text).to_arrow_table()
        except self._error as exc:
            raise DataError(_duckdb_sentence(exc, self.source_words)) from None

    def sql(self, text: str) -> pd.DataFrame:
        return self.sql_arrow(text).to_pandas()

    def execute(self, text: str) -> None:
        try:
            self.con.execute(text)
        except self._error as exc:
            raise DataError(_duckdb_sentence(exc, self.source_words)) from None

    def register(self, name: str, table) -> None:
        self.con.register(name, table)

    def drop(self, name: str) -> None:
        with contextlib.suppress(Exception):
            self.con.unregister(name)
        with contextlib.suppress(Exception):
            self.con.execute(f"DROP VIEW IF EXISTS {name}")

    def columns(self, view: str) -> list[tuple[str, str]]:
        rel = self.con.sql(f"SELECT * FROM {view} LIMIT 0")
        return [(c, _kind(str(t))) for c, t in zip(rel.columns, rel.types, strict=True)]

    def open(self, source) -> str:
        """A view over the source's rows; its name.

        Before the view is made, the connection is limited to the files the source names
        (`limit_access`: a path source's paths and the matches of its patterns, a query's
        `named_paths`, nothing for a table in memory) and locked; an engine opens one source
        (a second one is read under the first one's limit).
        """
        view = unique_name("src")
        self.source_words = describe_source(source)
        paths = source_paths(source)
        allowed: list[str] = []
        if paths is not None:
            kind = check_paths(paths)
            arg = "[" + ", ".join(_sql_string(p) for p in paths) + "]"
            reader = f"read_parquet({arg})" if kind == "parquet" else f"read_csv({arg}, header = true)"
            body = f"SELECT * FROM {reader}"
            local = [p for p in paths if "://" not in p]
            allowed = sorted({q for p in [*local, *local_files(local)] for q in (p, os.path.abspath(p))})
        elif isinstance(source, str):
            body = self._one_query(source)
            allowed = named_paths(body, self.con)
        elif isinstance(source, pd.DataFrame):
            import pyarrow as pa

            self.register(view + "_data", pa.Table.from_pandas(source, preserve_index=False))
            body = f"SELECT * FROM {view}_data"
        elif type(source).__module__.startswith("pyarrow") and hasattr(source, "schema"):
            self.register(view + "_data", source)
            body = f"SELECT * FROM {view}_data"
        else:
            raise ValueError(MSG_SOURCE_TYPE.format(kind=type(source).__name__))
        if not self._limited:
            limit_access(self.con, allowed)
            self._limited = True
        try:
            self.con.execute(f"CREATE OR REPLACE TEMPORARY VIEW {view} AS {body}")
            self.columns(view)
        except self._error as exc:
            refused = refused_sentence(exc)
            raise DataError(
                refused or MSG_SOURCE_FAILED.format(what=describe_source(source), reason=first_line(exc))
            ) from None
        return view

    @staticmethod
    def _one_query(text: str) -> str:
        """The one read-only SELECT of `text` (`sql_gate.read_only_select`), else DataError."""
        return read_only_select(text)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.con.close()
        if self._own_tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)


_CSV_LINE = re.compile(r"CSV Error on Line: (\d+)")
MSG_CSV_CELL = (
    "In {source}, line {line:,} cannot be read: a cell there does not fit its column (text in a column of "
    "numbers, or a row with more or fewer cells than the header). Fix or remove that row."
)


def _duckdb_sentence(exc: BaseException, source: str) -> str:
    """DuckDB's error as a sentence: a CSV line that does not parse names the line, a file
    outside the source's limit is `refused_sentence`; anything else keeps DuckDB's first line
    after what failed."""
    found = _CSV_LINE.search(str(exc))
    if found:
        return MSG_CSV_CELL.format(source=source, line=int(found.group(1)))
    return refused_sentence(exc) or MSG_QUERY_FAILED.format(engine="DuckDB", reason=first_line(exc))


class SparkEngine:
    """A Spark session (the DataFrame's own, or a quiet local one costlib starts)."""

    name = "spark"
    float_bits = None  # Spark SQL has no cast to a double's bits: the bins take the logarithm
    code_type = "INT"  # Spark has no unsigned types (`binning.near_bin_sql`)
    sorts_cheaply = False  # a global sort is a sampling job and a shuffle: numpy's sort costs less

    def __init__(self, source=None):
        self.spark = source.sparkSession if is_spark_frame(source) else spark_session()
        self._views: list[str] = []

    @staticmethod
    def quote(name: str) -> str:
        return "`" + str(name).replace("`", "``") + "`"

    def sql_arrow(self, text: str):
        with quiet_spark():
            try:
                return self.spark.sql(text).toArrow()
            except Exception as exc:  # AnalysisException, Py4JJavaError: say it in one sentence
                raise DataError(MSG_QUERY_FAILED.format(engine="Spark", reason=first_line(exc))) from None

    def sql(self, text: str) -> pd.DataFrame:
        return self.sql_arrow(text).to_pandas()

    def execute(self, text: str) -> None:
        with quiet_spark():
            try:
                self.spark.sql(text)
            except Exception as exc:
                raise DataError(MSG_QUERY_FAILED.format(engine="Spark", reason=first_line(exc))) from None

    def register(self, name: str, table) -> None:
        with quiet_spark():
            self.spark.createDataFrame(table).createOrReplaceTempView(name)
        self._views.append(name)

    def drop(self, name: str) -> None:
        with contextlib.suppress(Exception):
            self.spark.catalog.dropTempView(name)

    def columns(self, view: str) -> list[tuple[str, str]]:
        return [(c, _kind(t)) for c, t in self.spark.table(view).dtypes]

    def open(self, source) -> str:
        view = unique_name("src")
        paths = source_paths(source)
        with quiet_spark():
            try:
                if is_spark_frame(source):
                    df = source
                elif paths is not None:
                    kind = check_paths(paths)
                    reader = self.spark.read
                    df = (
                        reader.parquet(*paths)
                        if kind == "parquet"
                        else reader.csv(paths, header=True, inferSchema=True)
                    )
                elif isinstance(source, str):  # the gate in Spark's own parser: one query, no command
                    df = self.spark.sql(spark_select(self.spark, source))
                elif isinstance(source, pd.DataFrame):
                    import pyarrow as pa

                    df = self.spark.createDataFrame(pa.Table.from_pandas(source, preserve_index=False))
                elif type(source).__module__.startswith("pyarrow") and hasattr(source, "schema"):
                    df = self.spark.createDataFrame(source)
                else:
                    raise ValueError(MSG_SOURCE_TYPE.format(kind=type(source).__name__))
            except (DataError, ValueError):
                raise
            except Exception as exc:  # AnalysisException, Py4JJavaError: the engine's own words
                raise DataError(
                    MSG_SOURCE_FAILED.format(what=describe_source(source), reason=first_line(exc))
                ) from None
            df.createOrReplaceTempView(view)
        self._views.append(view)
        return view

    def close(self) -> None:
        for v in self._views:
            self.drop(v)


def connect(engine: str, source):
    """The engine object for `engine` ("duckdb" or "spark") and `source`."""
    if engine not in ENGINES:
        raise ValueError(MSG_ENGINE.format(valid=list(ENGINES), value=engine))
    if engine == "duckdb":
        if is_spark_frame(source):
            raise ValueError('source is a pyspark DataFrame: pass engine="spark" to compute on Spark.')
        return DuckDBEngine()
    return SparkEngine(source)
