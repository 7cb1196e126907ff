"""Where the rows live: DuckDB (embedded, the default) or Spark, behind the same few calls.

costlib's out-of-core code (:mod:`costlib.scale.scans` and the modules it uses) needs only this from an engine:

- ``sql(text) -> pandas.DataFrame``: run a query whose result is small (bins, groups);
- ``register(name, table)`` / ``drop(name)``: a small pyarrow table (survivors, cutoffs)
  as a view that queries can join;
- ``columns(view)``: the names and types of a view's columns, to check the column roles;
- ``quote(name)``: a user's column name as an identifier.

The SQL text that :mod:`costlib.scale.scans` sends is the same for both engines; only the
identifiers in the first view (the user's column names) are quoted differently. Sources:
a Parquet or CSV path or glob (or a list of them), a query string (DuckDB SQL, or Spark SQL
with ``engine="spark"``), a pandas DataFrame or pyarrow Table, or a ``pyspark.sql.DataFrame``.

DuckDB runs with a memory limit (``COSTLIB_DUCKDB_MEMORY_LIMIT``, default ``1GB``) and a
temporary directory of its own for what does not fit (``COSTLIB_DUCKDB_TEMP``, default a new
directory under the system's temporary directory, removed on close), so the rows are never
held in memory. It installs and loads no extension, and once `DuckDBEngine.open` knows the
source it opens no file but those the source names (`limit_access`: a query's quoted paths and
the matches of its patterns, a path source's files), locked so no statement can undo it.
Spark, when costlib has to start it (a path given with ``engine="spark"``), runs in local mode
with quiet logs and no console progress bars; a DataFrame's own session is used as it is.
Spark has no setting that limits reads to the files a query names: on Spark a query source can
read any file the process can (its gate, `sql_gate.spark_select`, still refuses writes,
commands and Java calls), and the command line's output guard finds the files a Spark query
reads in its parsed plan (`spark_query_files`). A path pattern is listed by costlib first,
counted, and refused past `MAX_LISTED` entries (`check_listing`), before an engine lists it.
"""

from __future__ import annotations

import contextlib
import fnmatch
import glob
import os
import re
import shutil
import tempfile
import uuid
import warnings
from collections.abc import Sequence

import pandas as pd

from costlib.core.errors import DataError

ENGINES = ("duckdb", "spark")
MSG_ENGINE = "engine must be one of {valid}: got {value!r}"
MSG_SOURCE_TYPE = (
    "source must be a Parquet or CSV path or glob, a list of paths, a query string, a pandas DataFrame, "
    "a pyarrow Table or (with engine='spark') a pyspark DataFrame: got {kind}"
)
MSG_NO_FILE = 'The source "{path}" does not exist (no file matches it).'
MSG_FILE_KIND = (
    'The source "{path}" is neither a Parquet file (.parquet, .pq) nor a CSV file (.csv, .tsv, .txt, '
    "optionally compressed): name the format by its extension, or pass a query that reads it."
)
MSG_SOURCE_FAILED = "The source {what} could not be read: {reason}"
MSG_QUERY_FAILED = "{engine} could not run costlib's query on the source: {reason}"
MSG_NOT_NAMED = (
    'DuckDB was asked to read "{path}", which the source does not name: a source reads only the files named in it '
    "(a path, or a pattern of them, in quotes), so that what it reads is known before it runs; name that file there."
)
MSG_NOT_LOCAL = (
    'The source reads "{path}", which is not a local file: costlib reads local files only, and DuckDB never installs '
    "or loads an extension (httpfs, sqlite) on its own."
)
MSG_SPARK_MISSING = (
    'engine="spark" needs the pyspark package (and a Java runtime): install pyspark, or use engine="duckdb".'
)

MAX_DOUBLE = "1.7976931348623157e308"  # the largest finite double: ABS(x) <= it is false for NaN and infinity
_QUERY_START = re.compile(r"^\s*(\(|select\b|with\b|from\b|values\b|table\b|pivot\b|unpivot\b|summarize\b)", re.I)
_LEADING_COMMENTS = re.compile(r"^(\s*(--[^\n]*(\n|$)|/\*.*?\*/))*", re.S)  # SQL comments before the query
_PARQUET = (".parquet", ".pq", ".parq")
_CSV = (".csv", ".tsv", ".txt")
_COMPRESSED = (".gz", ".zst", ".bz2", ".xz")

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


def _file_kind(path: str) -> str:
    name = path.lower()
    for ext in _COMPRESSED:
        if name.endswith(ext):
            name = name[: -len(ext)]
    if name.endswith(_PARQUET):
        return "parquet"
    if name.endswith(_CSV):
        return "csv"
    raise DataError(MSG_FILE_KIND.format(path=path))


#: DuckDB never installs or loads an extension on its own: a query naming an http:// or s3://
#: file, or a SQLite database, gets a sentence instead of a download
NO_EXTENSIONS = {"autoinstall_known_extensions": False, "autoload_known_extensions": False}


#: the most files and folders the listing of one path pattern may pass (a query's patterns on
#: Spark share it): past it the pattern is refused, and the listing stops there
MAX_LISTED = 10_000
MSG_TOO_MANY_LISTED = (
    'The pattern "{pattern}" lists more than {limit:,} files and folders (under "{base}"): that is not a data '
    "set costlib reads through a pattern; name the folder that holds the files, or a narrower pattern."
)
MSG_WALKS_ALL = (
    'The pattern "{pattern}" searches every folder under "{base}" (** from the filesystem root or the home '
    "folder); start the pattern in the folder that holds the files."
)
_MAGIC = re.compile(r"[*?\[{]")  # DuckDB's glob characters, and Spark's (Hadoop's) {a,b}


class Listing:
    """A count of the files and folders listed for a source's patterns, refused past `limit`.

    Parameters
    ----------
    limit : int, optional
        The most entries all listings together may pass (default `MAX_LISTED`, read when the
        count starts, so a test can lower it).
    """

    def __init__(self, limit: int | None = None):
        self.limit = MAX_LISTED if limit is None else limit
        self.listed = 0

    def scan(self, folder: str, pattern: str, base: str) -> list[os.DirEntry]:
        """The entries of `folder`, counted; DataError (`MSG_TOO_MANY_LISTED`) when the count
        passes the limit. A folder that cannot be read lists nothing."""
        try:
            with os.scandir(folder) as it:
                entries = []
                for entry in it:
                    self.listed += 1
                    if self.listed > self.limit:
                        raise DataError(MSG_TOO_MANY_LISTED.format(pattern=pattern, limit=self.limit, base=base))
                    entries.append(entry)
        except OSError:
            return []
        return entries

    def walk(self, folder: str, pattern: str, base: str) -> list[str]:
        """Every file under `folder` (folders followed through links), counted as listed."""
        files, folders = [], [folder]
        while folders:
            for entry in self.scan(folders.pop(), pattern, base):
                if _is_dir(entry):
                    folders.append(entry.path)
                else:
                    files.append(entry.path)
        return files


def _is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def check_listing(pattern: str, listing: Listing | None = None) -> None:
    """Refuse a path pattern whose listing would be too large, before the engine lists it.

    The pattern's folders are listed as a glob lists them, counted as they go (`Listing`): from
    the folder before the first glob character, into the subfolders each part of the pattern
    matches (every subfolder under a ``**``), and the listing stops as soon as the count
    passes `MAX_LISTED` (DataError, `MSG_TOO_MANY_LISTED`). A ``**`` that starts at the
    filesystem root or the home folder is refused before anything is listed (`MSG_WALKS_ALL`).
    A text with no glob character lists nothing.

    Parameters
    ----------
    pattern : str
        The path pattern, as a source gives it (``~`` is the home folder).
    listing : Listing, optional
        The count to add to (a query's patterns share one); None: a count of its own.
    """
    path = os.path.expanduser(pattern)
    found = _MAGIC.search(path)
    if found is None:
        return
    listing = listing or Listing()
    head = os.path.dirname(path[: found.start()])
    base = head or "."
    parts = [p for p in path[len(head) :].split("/") if p]
    if "**" in parts and os.path.realpath(base) in ("/", os.path.realpath(os.path.expanduser("~"))):
        raise DataError(MSG_WALKS_ALL.format(pattern=pattern, base=base))
    folders = [(base, parts)]
    while folders:
        folder, rest = folders.pop()
        part, rest = rest[0], rest[1:]
        if part == "**":  # any depth: the whole tree below is listed
            listing.walk(folder, pattern, base)
            continue
        if _MAGIC.search(part) is None:
            if rest and os.path.isdir(os.path.join(folder, part)):
                folders.append((os.path.join(folder, part), rest))
            continue
        for entry in listing.scan(folder, pattern, base):
            if rest and _is_dir(entry) and ("{" in part or fnmatch.fnmatchcase(entry.name, part)):
                folders.append((entry.path, rest))


def glob_files(pattern: str, con=None) -> list[str]:
    """The files DuckDB reads for the path `pattern` (its own glob: ``**``, and hidden files,
    which Python's glob skips); the pattern itself when it matches nothing. `con`: a DuckDB
    connection to ask (None: one of its own). A pattern whose listing is too large is refused
    first (`check_listing`), before DuckDB lists anything."""
    import duckdb

    check_listing(pattern)
    own = con is None
    con = duckdb.connect(":memory:", config=NO_EXTENSIONS) if own else con
    try:
        return [row[0] for row in con.execute("SELECT file FROM glob(?)", [pattern]).fetchall()] or [pattern]
    except duckdb.Error:
        return [pattern]
    finally:
        if own:
            con.close()


def _literals(query: str) -> list[str]:
    """The string constants of `query`, as DuckDB's tokenizer finds them ('it''s' -> it's)."""
    import duckdb

    tokens = duckdb.tokenize(query)
    out = []
    for i, (start, kind) in enumerate(tokens):
        if kind.name == "string_const":
            end = tokens[i + 1][0] if i + 1 < len(tokens) else len(query)
            text = query[start:end].strip()
            if len(text) >= 2 and text[0] == text[-1] == "'":
                out.append(text[1:-1].replace("''", "'"))
    return out


def named_paths(statement: str, con=None) -> list[str]:
    """The paths `statement` (a statement `sql_gate.read_only_select` returned) names, which are
    all DuckDB may open to run it: each string constant that is a file, and each one that is a
    path pattern with every file DuckDB's glob matches for it (hidden ones included), each as
    written and as an absolute path (``~`` expanded, as DuckDB does). A path built as the query
    runs (``concat``, ``||``) is named by none of them. `con`: a DuckDB connection to glob
    with (None: one of its own)."""
    out = set()
    for literal in _literals(statement):
        if not literal or "\n" in literal or "://" in literal:
            continue
        found = [f for f in glob_files(literal, con) if os.path.isfile(f)] if glob.has_magic(literal) else []
        if found or os.path.isfile(os.path.expanduser(literal)):
            out.update([literal, *found])
    return sorted({q for p in out for q in (p, os.path.abspath(os.path.expanduser(p)))})


def limit_access(con, paths: Sequence[str]) -> None:
    """Lock DuckDB connection `con` to reading `paths` (exactly those: a pattern as written and
    each of its matches): ``allowed_paths``, then ``enable_external_access = false``, then
    ``lock_configuration = true``, so that no statement can set any of it back. DuckDB refuses
    any other file, a URL, a directory's listing, ``ATTACH`` and ``INSTALL`` alike; its own
    spill files in ``temp_directory`` are not checked, so a scan still spills."""
    if paths:
        con.execute("SET allowed_paths = [" + ", ".join("'" + p.replace("'", "''") + "'" for p in paths) + "]")
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")


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

    from costlib.scale.sql_gate import read_only_select

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
    from costlib.scale.sql_gate import _seq, plan_nodes, spark_plan

    spark = spark or spark_session()
    with quiet_spark():
        plan = spark_plan(spark, query)
    ctes, relations = set(), []
    for node in plan_nodes(plan):
        kind = node.getClass().getSimpleName()
        if kind == "UnresolvedWith":
            ctes.update(str(pair._1()).lower() for pair in _seq(node.cteRelations()))
        elif kind == "UnresolvedRelation":
            relations.append([str(p) for p in _seq(node.multipartIdentifier())])
        elif kind == "UnresolvedTableValuedFunction":
            name = str(_seq(node.name())[-1])
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
        for found in _hadoop_glob(spark, path, listing) if _MAGIC.search(path) else [path]:
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


def is_query(source) -> bool:
    """Whether `source` is read as a query (text that starts as SQL does), not as a path."""
    if not isinstance(source, str) or os.path.exists(source):  # a file named "table.csv" is a file
        return False
    return bool(_QUERY_START.match(_LEADING_COMMENTS.sub("", source)))


def _paths(source) -> list[str] | None:
    """The paths of a path-like source (None when the source is a query or an object)."""
    if isinstance(source, os.PathLike):
        return [os.fspath(source)]
    if isinstance(source, str):
        return None if is_query(source) else [source]
    if isinstance(source, Sequence) and source and all(isinstance(p, str | os.PathLike) for p in source):
        return [os.fspath(p) for p in source]
    return None


def _check_paths(paths: list[str]) -> str:
    """Every path must match a file (remote URLs are left to the engine); returns the common kind."""
    kinds = {_file_kind(p) for p in paths}
    if len(kinds) > 1:
        raise DataError("The source mixes Parquet and CSV files; give files of one format.")
    for p in paths:
        if "://" in p:
            continue
        if not glob.glob(p) if glob.has_magic(p) else not os.path.isfile(p):
            raise DataError(MSG_NO_FILE.format(path=p))
    return kinds.pop()


def describe_source(source) -> str:
    """Words for the source, for sentences and provenance."""
    paths = _paths(source)
    if paths is not None:
        return ", ".join(f'"{p}"' for p in paths)
    if isinstance(source, str):
        return "the query"
    return f"the {type(source).__name__}"


def local_files(source) -> list[str]:
    """Every local file a path source reads: the path itself, or the files of a glob as DuckDB
    matches them (hidden files included), sorted; none for a query, a table in memory or a URL."""
    out = []
    for p in _paths(source) or []:
        if "://" in p:
            continue
        out.extend(sorted(f for f in glob_files(p) if os.path.isfile(f)) if glob.has_magic(p) else [p])
    return out


def files_of(source) -> list[dict]:
    """Name, size and modification time of every local file a path source reads (provenance)."""
    out = []
    for f in local_files(source):
        st = os.stat(f)
        out.append({"path": os.path.abspath(f), "bytes": st.st_size, "modified": int(st.st_mtime)})
    return out


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

    def __init__(self):
        import duckdb

        self._tmp = os.environ.get("COSTLIB_DUCKDB_TEMP") or tempfile.mkdtemp(prefix="costlib-duckdb-")
        self._own_tmp = "COSTLIB_DUCKDB_TEMP" not in os.environ
        config = {
            "memory_limit": duckdb_memory_limit(),
            "temp_directory": self._tmp,
            "preserve_insertion_order": False,
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
        paths = _paths(source)
        allowed: list[str] = []
        if paths is not None:
            kind = _check_paths(paths)
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
            refused = _refused_sentence(exc)
            raise DataError(
                refused or MSG_SOURCE_FAILED.format(what=describe_source(source), reason=_first_line(exc))
            ) from None
        return view

    @staticmethod
    def _one_query(text: str) -> str:
        """The one read-only SELECT of `text` (`sql_gate.read_only_select`), else DataError."""
        from costlib.scale.sql_gate import read_only_select

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


_REFUSED = re.compile(r'Permission Error: Cannot access (?:file|directory) "(.*)" - ')


def _refused_sentence(exc: BaseException) -> str | None:
    """Our sentence for DuckDB refusing a file `limit_access` left out (a URL, or a file the
    source does not name); None for any other error."""
    found = _REFUSED.search(str(exc))
    if found is None:
        return None
    path = found.group(1)
    return (MSG_NOT_LOCAL if "://" in path else MSG_NOT_NAMED).format(path=path)


def _duckdb_sentence(exc: BaseException, source: str) -> str:
    """DuckDB's error as a sentence: a CSV line that does not parse names the line, a file
    outside the source's limit is `_refused_sentence`; anything else keeps DuckDB's first line
    after what failed."""
    found = _CSV_LINE.search(str(exc))
    if found:
        return MSG_CSV_CELL.format(source=source, line=int(found.group(1)))
    return _refused_sentence(exc) or MSG_QUERY_FAILED.format(engine="DuckDB", reason=_first_line(exc))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    line = text[0] if text else type(exc).__name__
    return line if line.endswith(".") else line + "."


@contextlib.contextmanager
def quiet_spark():
    """pyspark warns that it does not fully support pandas >= 3 on every conversion; costlib
    converts through Arrow and is tested with this pandas, so the warning is noise here."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*PySpark does not yet fully support pandas.*")
        warnings.filterwarnings("ignore", category=FutureWarning, module="pyspark")
        yield


_LOG4J = """rootLogger.level = error
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n
logger.apache.name = org.apache
logger.apache.level = error
logger.jetty.name = org.sparkproject
logger.jetty.level = error
"""


def spark_session(master: str | None = None):
    """The active Spark session, or a new quiet local one (``local[*]`` unless `master` says).

    Quiet: errors only in the log, no console progress bars, no web UI, the driver bound to
    the loopback address.
    """
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise ValueError(MSG_SPARK_MISSING) from None
    with quiet_spark():
        active = SparkSession.getActiveSession()
        if active is not None and master is None:
            return active
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
        conf_dir = tempfile.mkdtemp(prefix="costlib-spark-")
        log4j = os.path.join(conf_dir, "log4j2.properties")
        with open(log4j, "w", encoding="utf-8") as fh:
            fh.write(_LOG4J)
        session = (
            SparkSession.builder.master(master or "local[*]")
            .appName("costlib")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", str(max(2, 2 * (os.cpu_count() or 1))))
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.extraJavaOptions", f"-Dlog4j2.configurationFile=file:{log4j}")
            .getOrCreate()
        )
        session.sparkContext.setLogLevel("ERROR")
        return session


def _is_spark_frame(source) -> bool:
    return type(source).__module__.startswith("pyspark.sql") and hasattr(source, "sparkSession")


class SparkEngine:
    """A Spark session (the DataFrame's own, or a quiet local one costlib starts)."""

    name = "spark"

    def __init__(self, source=None):
        self.spark = source.sparkSession if _is_spark_frame(source) else spark_session()
        self._views: list[str] = []

    @staticmethod
    def quote(name: str) -> str:
        return "`" + str(name).replace("`", "``") + "`"

    def sql_arrow(self, text: str):
        with quiet_spark():
            try:
                return self.spark.sql(text).toArrow()
            except Exception as exc:  # AnalysisException, Py4JJavaError: say it in one sentence
                raise DataError(MSG_QUERY_FAILED.format(engine="Spark", reason=_first_line(exc))) from None

    def sql(self, text: str) -> pd.DataFrame:
        return self.sql_arrow(text).to_pandas()

    def execute(self, text: str) -> None:
        with quiet_spark():
            try:
                self.spark.sql(text)
            except Exception as exc:
                raise DataError(MSG_QUERY_FAILED.format(engine="Spark", reason=_first_line(exc))) from None

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
        paths = _paths(source)
        with quiet_spark():
            try:
                if _is_spark_frame(source):
                    df = source
                elif paths is not None:
                    kind = _check_paths(paths)
                    reader = self.spark.read
                    df = (
                        reader.parquet(*paths)
                        if kind == "parquet"
                        else reader.csv(paths, header=True, inferSchema=True)
                    )
                elif isinstance(source, str):  # the gate in Spark's own parser: one query, no command
                    from costlib.scale.sql_gate import spark_select

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
                    MSG_SOURCE_FAILED.format(what=describe_source(source), reason=_first_line(exc))
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
        if _is_spark_frame(source):
            raise ValueError('source is a pyspark DataFrame: pass engine="spark" to compute on Spark.')
        return DuckDBEngine()
    return SparkEngine(source)
