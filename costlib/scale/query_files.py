"""The files a query source reads, known before it runs, on either engine.

The command line's output guard asks `query_files` so that no output is written over a file a
query reads. Each query passes its engine's own gate first (:mod:`costlib.scale.sql_gate`).
DuckDB: the paths its string constants name, and every file DuckDB opens to bind it on a
connection limited to those. Spark has no setting that limits reads to the files a query
names: on Spark a query source can read any file the process can (its gate still refuses
writes, commands and Java calls), so the files a Spark query reads are found in its parsed
plan (`spark_query_files`), and a relation whose files the text does not name is refused.
"""

from __future__ import annotations

import contextlib
import glob
import os
import re

from costlib.core.errors import DataError
from costlib.scale.access import NO_EXTENSIONS, limit_access
from costlib.scale.listing import MAGIC, Listing, check_listing, named_paths
from costlib.scale.spark import quiet_spark, spark_session
from costlib.scale.sql_gate import plan_nodes, read_only_select, scala_seq, spark_plan


def query_files(query: str, *, engine: str = "duckdb") -> list[str]:
    """The files a query source reads, known before it runs, each query read by its engine's own
    gate first.

    DuckDB: the files its string constants name (`named_paths`: a path, or every match of a
    pattern), and every file DuckDB opens to bind it on a connection limited to those
    (`limit_access`), so that a path built as it runs (``concat``, ``||``) is neither opened
    here nor, later, by the engine. Spark: `spark_query_files`.
    """
    import duckdb

    if engine == "spark":
        return spark_query_files(query)

    query = read_only_select(query)  # the gate first: DESCRIBE below runs every statement of its text
    files = set()
    con = duckdb.connect(":memory:", config=NO_EXTENSIONS)  # one connection: the globs, then the logged bind
    try:
        named = named_paths(query, con)
        files.update(f for f in named if os.path.isfile(f) and not glob.has_magic(f))
        con.execute("CALL enable_logging('FileSystem')")
        limit_access(con, named)
        with contextlib.suppress(duckdb.Error):
            con.execute("DESCRIBE " + query)
        rows = con.execute(
            "SELECT DISTINCT json_extract_string(message, '$.path') FROM duckdb_logs WHERE type = 'FileSystem'"
        ).fetchall()
        files.update(r[0] for r in rows if r[0])
    except duckdb.Error:
        pass
    finally:
        con.close()
    return sorted(files)


#: Spark's file formats a query reads as ``format.`path` ``
SPARK_FILE_FORMATS = frozenset({"parquet", "csv", "json", "orc", "text", "avro", "binaryfile", "xml"})
#: Spark's table functions that read no file (``FROM range(10)``, a generator)
SPARK_NO_FILE_FUNCTIONS = frozenset(
    {
        "range",
        "explode",
        "explode_outer",
        "inline",
        "inline_outer",
        "json_tuple",
        "posexplode",
        "posexplode_outer",
        "stack",
        "sql_keywords",
        "variant_explode",
        "variant_explode_outer",
        "collations",
    }
)
MSG_SPARK_UNNAMED_FILES = (
    "With Spark, a query source names every file it reads, so that no output is written over one: this one reads "
    "{what}, whose files its text does not name; read files as parquet.`/path/to/files` (or csv., json., orc., "
    "text.)."
)
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]+):")


def spark_query_files(query: str, spark=None) -> list[str]:
    """The local files a Spark query source reads, known from its parsed plan before it runs.

    The text passes Spark's gate first (`sql_gate.spark_plan`: one query, nothing run); then
    each relation ``format.`path` `` of its plan (`SPARK_FILE_FORMATS`), in CTEs and subqueries
    too, is a path Spark reads: a pattern's matches by Hadoop's own glob (Spark's), and every
    file under a folder (Spark reads a folder's files), listed under one `Listing` bound. A
    path with a scheme other than ``file:`` is not local and is left out. A relation whose
    files the text does not name (a table of the catalog, a view, a table function other than
    `SPARK_NO_FILE_FUNCTIONS`, a name built through ``IDENTIFIER(...)``) is refused with a
    sentence (`MSG_SPARK_UNNAMED_FILES`): what it reads cannot be proven apart from an output.

    Parameters
    ----------
    query : str
        The query source, in Spark SQL.
    spark : pyspark.sql.SparkSession, optional
        The session whose parser reads it; None: `spark_session` (the active one, else a new
        local one, which stays active, so the engine that runs the query uses it too).

    Returns
    -------
    list of str
        The absolute paths, sorted: each named path, its matches and the files under them.
    """
    spark = spark or spark_session()
    with quiet_spark():
        plan = spark_plan(spark, query)
    ctes, relations = set(), []
    for node in plan_nodes(plan):
        kind = node.getClass().getSimpleName()
        if kind == "UnresolvedWith":
            ctes.update(str(pair._1()).lower() for pair in scala_seq(node.cteRelations()))
        elif kind == "UnresolvedRelation":
            relations.append([str(p) for p in scala_seq(node.multipartIdentifier())])
        elif kind == "UnresolvedTableValuedFunction":
            name = str(scala_seq(node.name())[-1])
            if name.lower() not in SPARK_NO_FILE_FUNCTIONS:
                raise DataError(MSG_SPARK_UNNAMED_FILES.format(what=f"the table function {name!r}"))
        elif kind == "PlanWithUnresolvedIdentifier":
            raise DataError(MSG_SPARK_UNNAMED_FILES.format(what="a table named through IDENTIFIER(...)"))
    listing, files = Listing(), set()
    for parts in relations:
        if len(parts) == 1 and parts[0].lower() in ctes:
            continue
        if len(parts) != 2 or parts[0].lower() not in SPARK_FILE_FORMATS:
            raise DataError(MSG_SPARK_UNNAMED_FILES.format(what="the table `" + "`.`".join(parts) + "`"))
        path = _spark_local_path(spark, parts[1])
        if path is None:
            continue
        for found in _hadoop_glob(spark, path, listing) if MAGIC.search(path) else [path]:
            files.add(found)
            if os.path.isdir(found):
                files.update(listing.walk(found, parts[1], found))
    return sorted(files)


def _local_fs(spark):
    """Hadoop's local file system of `spark` (the one Spark reads ``file:`` paths with)."""
    return spark._jvm.org.apache.hadoop.fs.FileSystem.getLocal(spark._jsc.hadoopConfiguration())


def _spark_local_path(spark, path: str) -> str | None:
    """The absolute local path Spark reads for `path` (``file:`` dropped, no ``~``, relative to
    the working folder of Spark's JVM, which is where it started, not Python's own folder);
    None for another scheme (``hdfs://``, ``s3a://``)."""
    scheme = _SCHEME.match(path)
    if scheme is not None:
        if scheme.group(1).lower() != "file":
            return None
        path = re.sub(r"^file:(//(?=/))?", "", path, flags=re.I)
    if not os.path.isabs(path):
        path = os.path.join(str(_local_fs(spark).getWorkingDirectory().toUri().getPath()), path)
    return os.path.normpath(path)


def _hadoop_glob(spark, path: str, listing: Listing) -> list[str]:
    """The matches of the local pattern `path` by Hadoop's glob (Spark's own: ``{a,b}`` too),
    once `check_listing` has bounded its listing; the pattern itself when nothing matches."""
    check_listing(path, listing)
    statuses = _local_fs(spark).globStatus(spark._jvm.org.apache.hadoop.fs.Path(path))
    found = [str(st.getPath().toUri().getPath()) for st in statuses or []]
    return found or [path]
