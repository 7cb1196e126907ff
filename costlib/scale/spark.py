"""Spark, started quietly: the active session or a local one, and its warnings about pandas kept down.

Spark, when costlib has to start it (a path given with ``engine="spark"``), runs in local mode
with quiet logs and no console progress bars; a DataFrame's own session is used as it is.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import warnings

MSG_SPARK_MISSING = (
    'engine="spark" needs the pyspark package (and a Java runtime): install pyspark, or use engine="duckdb".'
)


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


def is_spark_frame(source) -> bool:
    """Whether `source` is a ``pyspark.sql.DataFrame``."""
    return type(source).__module__.startswith("pyspark.sql") and hasattr(source, "sparkSession")
