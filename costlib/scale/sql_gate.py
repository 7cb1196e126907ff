"""The one gate for SQL a person wrote: text becomes a query source only as one read-only SELECT.

Every path that takes SQL text for DuckDB (a CLI source, `aggregate`, `audit --engine`, `watch`,
the data folder, the Python API, and the output guard's file lookup) calls `read_only_select`
before anything else touches the text, and runs what it returns, never the raw text; Spark's
engine asks `spark_select`, the same proof in Spark's own parser, so that Spark SQL is read as
Spark reads it (the command line's output guard reads the proven plan, `spark_plan`, for the
files it names). The gate only parses: DuckDB's parser cuts
the text into statements (`extract_statements`, which runs nothing) and its tokenizer reads the
one statement's words; no `execute`, `DESCRIBE`, `EXPLAIN` or engine call sees the text first.

Refused, each with a sentence: more or fewer than one statement; a statement that is not a
SELECT; a SELECT that holds a statement keyword (``WITH a AS (COPY ... TO 'f') SELECT 1`` parses
as a SELECT and writes `f` when run), and a SELECT that calls a function that runs SQL text of
its own (``query``) or touches the database (``checkpoint``). Words inside string constants,
quoted names and comments do not count. What a read can reach is the engine's matter: DuckDB
runs with its extensions off (no http, s3 or database reader downloads itself) and opens only the
files the statement names (`access.limit_access`), so a path built as it runs is refused.
"""

from __future__ import annotations

from costlib.core.errors import DataError
from costlib.scale.access import NO_EXTENSIONS, first_line, limit_access

MSG_ONE_QUERY = (
    "A query source must be one SELECT statement, which can only read; this one has {n} statement(s) or is not a "
    "SELECT."
)
MSG_NOT_PARSED = "The query cannot be read as SQL: {reason}"
MSG_WRITES = (
    "A query source must be one SELECT statement, which can only read: this one holds {word!r}, which {what}. "
    "(A column or table of that name goes in double quotes.)"
)
MSG_NOT_TEXT = "A query source must be text: got {kind}."
MSG_SPARK_COMMAND = (
    "A query source must be one SELECT statement, which can only read: Spark reads this one as {what}, which is not "
    "a query."
)
MSG_SPARK_CALLS = (
    "A query source must be one SELECT statement, which can only read: this one calls {word!r}, which runs Java code "
    "of its own."
)
MSG_SPARK_LATE_NAME = (
    "A query source must be one SELECT statement, which can only read: this one calls a function named through "
    "IDENTIFIER(...), which is only known as it runs; call the function by its name."
)

#: statement words that may not appear in a query source outside strings, quoted names and comments
STATEMENT_WORDS = frozenset(
    [
        "alter",
        "analyze",
        "attach",
        "begin",
        "call",
        "checkpoint",
        "commit",
        "copy",
        "create",
        "deallocate",
        "delete",
        "detach",
        "drop",
        "execute",
        "export",
        "force",
        "grant",
        "import",
        "insert",
        "install",
        "load",
        "merge",
        "pragma",
        "prepare",
        "reset",
        "revoke",
        "rollback",
        "set",
        "transaction",
        "truncate",
        "update",
        "use",
        "vacuum",
    ]
)
#: functions a SELECT can call that run SQL text of their own or change the database
STATEMENT_FUNCTIONS = frozenset({"query", "query_table", "checkpoint", "force_checkpoint", "setseed", "nextval"})
#: Spark's plan nodes that are not a query though no Command: an INSERT and SQL text run as it goes
SPARK_NOT_QUERIES = frozenset({"InsertIntoStatement", "UnresolvedExecuteImmediate", "ExecuteImmediateQuery"})
#: Spark functions that call a Java method named in the query
SPARK_CALLS = frozenset({"reflect", "java_method", "try_reflect"})


def read_only_select(text) -> str:
    """The one read-only SELECT statement of `text`, as DuckDB's parser cut it (no trailing ``;``);
    DataError otherwise. Nothing runs.

    >>> read_only_select("SELECT 1 AS y; ")
    'SELECT 1 AS y'
    >>> try:
    ...     read_only_select("SELECT 1; COPY (SELECT 42) TO 'x.csv'")
    ... except DataError as err:
    ...     print(str(err).split(";")[1])
     this one has 2 statement(s) or is not a SELECT.
    """
    import duckdb

    if not isinstance(text, str):
        raise DataError(MSG_NOT_TEXT.format(kind=type(text).__name__))
    con = duckdb.connect(":memory:", config=NO_EXTENSIONS)
    try:
        limit_access(con, [])  # the parser needs no file
        statements = con.extract_statements(text)
    except duckdb.Error as exc:
        raise DataError(MSG_NOT_PARSED.format(reason=first_line(exc))) from None
    finally:
        con.close()
    if len(statements) != 1 or statements[0].type.name != "SELECT":
        raise DataError(MSG_ONE_QUERY.format(n=len(statements)))
    statement = statements[0].query.strip().rstrip(";").strip()
    _check_words(statement)
    return statement


def _check_words(statement: str) -> None:
    """Refuse a statement word, or a call of a statement function, among the statement's tokens."""
    import duckdb

    tokens = duckdb.tokenize(statement)
    for i, (start, kind) in enumerate(tokens):
        if kind.name not in ("keyword", "identifier"):
            continue
        end = tokens[i + 1][0] if i + 1 < len(tokens) else len(statement)
        word = statement[start:end].strip()
        if word.startswith('"'):
            continue  # a quoted name
        lower = word.lower()
        if kind.name == "keyword" and lower in STATEMENT_WORDS:
            raise DataError(MSG_WRITES.format(word=word, what="starts a statement of its own"))
        called = i + 1 < len(tokens) and statement[tokens[i + 1][0] :].lstrip().startswith("(")
        if called and lower.rsplit(".", 1)[-1] in STATEMENT_FUNCTIONS:
            raise DataError(MSG_WRITES.format(word=word, what="runs SQL of its own or changes the database"))


def spark_select(spark, text) -> str:
    """`text` when Spark's own parser reads it as one query (Spark SQL: backtick names and all);
    DataError otherwise. Nothing runs: the parser (``sessionState().sqlParser().parsePlan``)
    only builds the unresolved plan, and every node of it and of its subqueries is checked.

    Refused, each with a sentence: text Spark cannot parse (more than one statement among it);
    a plan with a command anywhere (``SET``, ``CREATE ... AS SELECT``, ``CACHE TABLE``, a
    ``BEGIN ... END`` script: Spark's ``Command``), an ``INSERT`` or ``EXECUTE IMMEDIATE``
    (`SPARK_NOT_QUERIES`), a call of a function that runs Java code (`SPARK_CALLS`), and a call
    of a function named through ``IDENTIFIER(...)``, whose name is only known as it runs.

    Parameters
    ----------
    spark : pyspark.sql.SparkSession
        The session whose parser reads the text (and that will run it).
    text : str
        The query source.

    Returns
    -------
    str
        `text` unchanged: Spark parses it again, to the same plan, when it runs.
    """
    spark_plan(spark, text)
    return text


def spark_plan(spark, text):
    """The unresolved plan Spark's parser makes of `text` once `spark_select`'s proof holds (the
    same checks, in the same order); DataError otherwise. Nothing runs.

    Parameters
    ----------
    spark : pyspark.sql.SparkSession
        The session whose parser reads the text.
    text : str
        The query source.

    Returns
    -------
    py4j.java_gateway.JavaObject
        The parsed ``LogicalPlan``, for a reader of what it reads (`query_files.spark_query_files`).
    """
    from pyspark.errors import ParseException

    if not isinstance(text, str):
        raise DataError(MSG_NOT_TEXT.format(kind=type(text).__name__))
    try:
        plan = spark._jsparkSession.sessionState().sqlParser().parsePlan(text)
    except ParseException as exc:
        raise DataError(MSG_NOT_PARSED.format(reason=first_line(exc))) from None
    command = spark._jvm.java.lang.Class.forName("org.apache.spark.sql.catalyst.plans.logical.Command")
    for node in plan_nodes(plan):
        name = node.getClass().getSimpleName()
        if command.isInstance(node) or name in SPARK_NOT_QUERIES:
            raise DataError(MSG_SPARK_COMMAND.format(what=name))
        expressions = scala_seq(node.expressions())
        while expressions:
            expression = expressions.pop()
            kind = expression.getClass().getSimpleName()
            if kind == "ExpressionWithUnresolvedIdentifier":  # IDENTIFIER('reflect')(...)
                raise DataError(MSG_SPARK_LATE_NAME)
            if kind == "UnresolvedFunction":
                word = expression.nameParts().last()
                if word.lower() in SPARK_CALLS:
                    raise DataError(MSG_SPARK_CALLS.format(word=word))
            expressions.extend(scala_seq(expression.children()))
    return plan


def plan_nodes(plan):
    """Every node of a Spark plan: its children, inner children (a CTE's definitions) and
    subqueries (``IN (SELECT ...)``), depth first."""
    plans = [plan]
    while plans:
        node = plans.pop()
        yield node
        children = scala_seq(node.children()) + scala_seq(node.innerChildren())  # CTEs: inner
        plans.extend(children + scala_seq(node.subqueries()))


def scala_seq(seq) -> list:
    """A Scala Seq (through py4j) as a Python list."""
    return [seq.apply(i) for i in range(seq.size())]
