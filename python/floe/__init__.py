"""floe's Python API: PyFlink's TableEnvironment on floe's own SQL session.

    import floe
    t_env = floe.TableEnvironment(warehouse="warehouse")
    t_env.execute_sql("CREATE TABLE t (id BIGINT, data STRING)")
    t_env.execute_sql("INSERT INTO t VALUES (1, 'a')").wait()
    for row in t_env.execute_sql("SELECT * FROM t").collect():
        print(row.id, row.data)

Statements run in the same session code as `floe sql` (the native module floe._floe); see
docs/python.md.
"""

import enum as _enum
import os as _os
import sys as _sys
import tempfile as _tempfile

from floe import _floe
from floe._floe import (  # noqa: F401  (re-exported)
    AlreadyExistsError,
    CancelledError,
    CommitStateUnknownError,
    ConflictError,
    CorruptDataError,
    Error,
    InternalError,
    InvalidArgumentError,
    IOError,
    NotFoundError,
    ResourceExhaustedError,
    UnsupportedError,
)

__all__ = [
    "TableEnvironment", "TableResult", "TableConfig", "JobClient", "Table", "Row", "RowKind",
    "ResultKind", "Error", "InvalidArgumentError", "NotFoundError", "AlreadyExistsError",
    "ConflictError", "CommitStateUnknownError", "IOError", "CorruptDataError", "UnsupportedError",
    "InternalError", "CancelledError", "ResourceExhaustedError",
]


class RowKind(_enum.Enum):
    """The change a row describes, as PyFlink's RowKind."""
    INSERT = 0
    UPDATE_BEFORE = 1
    UPDATE_AFTER = 2
    DELETE = 3

    def short_string(self):
        return ("+I", "-U", "+U", "-D")[self.value]


class ResultKind(_enum.Enum):
    """SUCCESS for statements without rows, SUCCESS_WITH_CONTENT for those with rows."""
    SUCCESS = 0
    SUCCESS_WITH_CONTENT = 1


class Row(tuple):
    """One result row, or a ROW value: a tuple of the values, also readable by field name
    (row.id, row["id"]), with its RowKind (get_row_kind()). Each result makes its own
    subclasses, which carry the names and the kind, so a row costs no more than a tuple.
    Row(id=1, name="a") makes one by names, as PyFlink's Row does (write_rows writes it as a
    ROW); Row(1, "a") one without names."""
    __slots__ = ()
    _fields = ()
    _kind = RowKind.INSERT

    def __new__(cls, *values, **named):
        if named:
            if values:
                raise TypeError("Row takes values or name=value pairs, not both")
            return _named_row(tuple(named), tuple(named.values()))
        return tuple.__new__(cls, values)

    def __getnewargs__(self):
        return tuple(self)

    def get_row_kind(self):
        return self._kind

    def get_fields_by_names(self, names):
        return [self[self._fields.index(n)] for n in names]

    def as_dict(self):
        return dict(zip(self._fields, self))

    def __getattr__(self, name):
        try:
            return tuple.__getitem__(self, self._fields.index(name))
        except ValueError:
            raise AttributeError(name) from None

    def __getitem__(self, key):
        if isinstance(key, str):
            try:
                key = self._fields.index(key)
            except ValueError:
                raise KeyError(key) from None
        return tuple.__getitem__(self, key)

    def __repr__(self):
        values = ", ".join(f"{n}={v!r}" for n, v in zip(self._fields, self))
        kind = "" if self._kind is RowKind.INSERT else self._kind.short_string()
        return f"{kind}Row({values})"


def _row_classes(names):
    fields = tuple(names)
    return tuple(type("Row", (Row,), {"__slots__": (), "_fields": fields, "_kind": kind})
                 for kind in RowKind)


_named_row_classes = {}


def _named_row(names, values):
    """A Row of these field names (a tuple) and values: ROW values from floe, Row(name=...)."""
    row_class = _named_row_classes.get(names)
    if row_class is None:
        row_class = _named_row_classes.setdefault(names, _row_classes(names)[0])
    return tuple.__new__(row_class, values)


_floe.set_row_factory(_named_row)


class _RowIterator:
    """collect()'s iterator: rows as floe produces them; close() (or leaving a with block)
    cancels the query, as PyFlink's CloseableIterator does."""

    def __init__(self, result):
        self._result = result
        self._generator = self._rows()

    def _rows(self):
        native, classes = self._result._native, self._result._classes
        while True:
            rows = native.next_rows(classes)
            if rows is None:
                return
            yield from rows

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._generator)

    def close(self):
        self._result._native.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class TableSchema:
    """The columns of a result: names and Flink SQL types ("BIGINT", "DECIMAL(10, 2)"...)."""

    def __init__(self, names, types):
        self._names, self._types = list(names), list(types)

    def get_field_names(self):
        return list(self._names)

    def get_field_data_types(self):
        return list(self._types)

    def __repr__(self):
        return "TableSchema(" + ", ".join(f"{n} {t}" for n, t in zip(self._names, self._types)) + ")"


class JobClient:
    """The job an INSERT started (get_job_id(), get_job_status(), wait(), cancel()). A batch
    INSERT has run to its end when execute_sql returns: its client has no job and wait()
    returns at once."""

    def __init__(self, session, job_id):
        self._session, self._job_id = session, job_id

    def get_job_id(self):
        return self._job_id

    def get_job_status(self):
        return self._session.job_status(self._job_id)["state"] if self._job_id else "FINISHED"

    def wait(self, timeout_ms=None):
        """Waits for the job's end (Ctrl-C stops it), or at most timeout_ms milliseconds: then
        raises TimeoutError and the job runs on. Raises floe.Error when the job failed or was
        cancelled. Returns the job's status: id, name, state, error and summary."""
        if not self._job_id:
            return {"state": "FINISHED"}
        return self._session.wait_job(self._job_id, _milliseconds(timeout_ms))

    def cancel(self):
        if self._job_id:
            self._session.cancel_job(self._job_id)


class TableResult:
    """What execute_sql returns: rows (collect(), print(), the Arrow stream, to_pandas()),
    a message, or a job (get_job_client())."""

    def __init__(self, session, native):
        self._session, self._native = session, native
        if native.kind == "rows":
            self._names, self._types = native.column_names(), native.column_types()
        else:
            self._names, self._types = ["result"], ["STRING"]
        self._classes = _row_classes(self._names)

    def get_result_kind(self):
        if self._native.kind == "rows":
            return ResultKind.SUCCESS_WITH_CONTENT
        return ResultKind.SUCCESS

    def get_table_schema(self):
        return TableSchema(self._names, self._types)

    @property
    def column_names(self):
        return list(self._names)

    @property
    def column_types(self):
        return list(self._types)

    @property
    def message(self):
        """The statement's message ("[INFO] Execute statement succeeded." and the like)."""
        return self._native.message

    @property
    def is_changelog(self):
        """True for a streaming query's change stream, whose rows carry their RowKind."""
        return self._native.changelog

    def get_job_client(self):
        """The job of an INSERT (None for statements that start none)."""
        if self._native.kind == "job":
            return JobClient(self._session, self._native.job_id)
        if self._native.message.startswith("[INFO] Inserted"):
            return JobClient(self._session, "")
        return None

    def wait(self, timeout_ms=None):
        """Waits for the statement's job, if it started one, as JobClient.wait: to its end, or
        at most timeout_ms milliseconds (then TimeoutError, the job still running)."""
        client = self.get_job_client()
        return client.wait(timeout_ms) if client is not None else None

    def collect(self):
        """An iterator of Rows; a streaming query's never ends by itself: close() it, or press
        Ctrl-C (KeyboardInterrupt, the query cancelled)."""
        if self._native.kind != "rows":
            return iter([self._classes[0]((self._native.message,))])
        return _RowIterator(self)

    def print(self, file=None):
        """The rows as `floe sql` shows them (its result mode, a tableau by default)."""
        out = file if file is not None else _sys.stdout
        if self._native.kind != "rows":
            out.write(self._native.message + "\n")
            if self._native.kind == "job":
                out.write(f"Job ID: {self._native.job_id}\n")
            return
        self._native.print(out.write)

    def __arrow_c_stream__(self, requested_schema=None):
        """The rows as an Arrow C stream (the Arrow PyCapsule protocol), zero-copy: what
        pyarrow.RecordBatchReader.from_stream, polars.from_arrow and DuckDB take. Row kinds are
        not part of Arrow and are left out. A requested_schema (an "arrow_schema" capsule) is
        best-effort, as the protocol allows: the stream keeps floe's own types, and a request
        for other columns raises InvalidArgumentError."""
        if self._native.kind != "rows":
            raise InvalidArgumentError("the statement returned no rows to export")
        return self._native.arrow_stream(requested_schema)

    to_arrow_stream = __arrow_c_stream__

    def to_pandas(self):
        """The rows as a pandas DataFrame (pandas must be importable)."""
        import pandas
        return pandas.DataFrame.from_records(list(self.collect()), columns=self._names)


class TableConfig:
    """The session's options: what SET changes (execution.runtime-mode, parallelism.default,
    execution.checkpointing.interval...)."""

    def __init__(self, session):
        self._session = session

    def set(self, key, value):
        self._session.config_set(str(key), str(value))
        return self

    def get(self, key, default=None):
        value = self._session.config_get(str(key))
        return default if value is None else value


class Table:
    """A table by name, from TableEnvironment.from_path: its rows as a TableResult or an Arrow
    stream."""

    def __init__(self, t_env, path):
        self._t_env, self._path = t_env, path

    def execute(self):
        quoted = ".".join("`" + part.replace("`", "``") + "`" for part in self._path.split("."))
        return self._t_env.execute_sql(f"SELECT * FROM {quoted}")

    def __arrow_c_stream__(self, requested_schema=None):
        return self.execute().__arrow_c_stream__(requested_schema)

    to_arrow_stream = __arrow_c_stream__

    def to_pandas(self):
        return self.execute().to_pandas()


def _milliseconds(timeout_ms):
    if timeout_ms is None:
        return None
    if isinstance(timeout_ms, bool) or not isinstance(timeout_ms, int) or timeout_ms < 0:
        raise InvalidArgumentError(f"timeout_ms must be a non-negative int, not {timeout_ms!r}")
    return timeout_ms


_WRITE_OPTIONS = {
    "catalog", "partition_fields", "sort_fields", "table_properties", "triggering_frequency",
    "direct_write_byte_limit", "distribution_mode", "autosharding", "keep", "drop", "only",
    "branch", "upsert", "write_options", "write_parallelism", "sink_id", "drop_unused_columns",
}


class TableEnvironment:
    """A floe SQL session, as `floe sql` has: the embedded catalog `floe` in `warehouse`
    (./warehouse by default; warehouse="" for none), options from `config` (a dict of SET keys).
    """

    def __init__(self, warehouse=None, config=None):
        checkpoints = _os.path.join(warehouse if warehouse else _tempfile.gettempdir(),
                                    "checkpoints")
        self._session = _floe.NativeSession(warehouse, checkpoints)
        for key, value in (config or {}).items():
            self._session.config_set(str(key), str(value))

    @staticmethod
    def create(environment_settings=None, warehouse=None, config=None):
        return TableEnvironment(warehouse=warehouse, config=config)

    def execute_sql(self, stmt):
        """Runs one statement of any kind `floe sql` accepts."""
        return TableResult(self._session, self._session.execute_sql(stmt))

    def get_config(self):
        return TableConfig(self._session)

    def list_catalogs(self):
        return list(self._session.catalogs())

    def list_databases(self):
        return [row[0] for row in self.execute_sql("SHOW DATABASES").collect()]

    def list_tables(self):
        return [row[0] for row in self.execute_sql("SHOW TABLES").collect()]

    def get_current_catalog(self):
        return self._session.current_catalog()

    def get_current_database(self):
        return self._session.current_database()

    def use_catalog(self, catalog_name):
        self._session.use_catalog(catalog_name)

    def use_database(self, database_name):
        self._session.use_database(database_name)

    def from_path(self, path):
        return Table(self, path)

    def write_rows(self, table, rows, **options):
        """Writes rows (a sequence of dicts, or any object with __arrow_c_stream__) with floe's
        WriteRows into `table` — a table name or a template such as "db.events_{region}" — of the
        current catalog (or catalog=...). Options mirror WriteRows (docs/write-rows.md):
        partition_fields, sort_fields, table_properties, triggering_frequency (seconds or a
        timedelta), direct_write_byte_limit, distribution_mode ("none", "hash"), autosharding,
        keep / drop / only, branch, upsert (equality fields), write_options (IcebergSink
        options), write_parallelism, sink_id, drop_unused_columns. Returns the committed
        snapshots as a TableResult (table, snapshot_id, operation, summary...)."""
        unknown = set(options) - _WRITE_OPTIONS
        if unknown:
            raise InvalidArgumentError(f"write_rows has no option {sorted(unknown)[0]!r}")
        frequency = options.pop("triggering_frequency", None)
        if frequency is not None:
            seconds = frequency.total_seconds() if hasattr(frequency, "total_seconds") else frequency
            options["triggering_frequency_ms"] = int(seconds * 1000)
        return TableResult(self._session, self._session.write_rows(table, rows, options))
