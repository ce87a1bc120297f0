// floe._floe, the native half of the `floe` Python package (python/floe/): a floe SQL session —
// the same sql::Session that `floe sql` runs — with its results, jobs and write_rows. The package
// around it gives these PyFlink's shapes (TableEnvironment, TableResult, Row...); this file only
// crosses the language boundary.
//
// Threads: every call into floe that can take long runs with the GIL released on a helper thread
// while the calling thread waits and checks for Ctrl-C every 100 ms (Python runs signal handlers
// only on its main thread, in code that holds the GIL). Ctrl-C cancels what floe is doing — the
// result's RowStream, the jobs the statement started, a write_rows job — waits for it to stop and
// raises KeyboardInterrupt. A Session is not thread-safe: one Python thread uses it at a time.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "floe/batch/arrow_c_stream.h"
#include "floe/cli/result_printer.h"
#include "floe/python/rows_from_python.h"
#include "floe/python/rows_to_python.h"
#include "floe/sql/scalar/type_rules.h"
#include "floe/sql/session.h"
#include "floe/sql/statements/jobs.h"
#include "floe/stream/collect_sink.h"
#include "floe/stream/collection_source.h"
#include "floe/stream/iceberg/write_rows/dynamic_committer.h"
#include "floe/stream/iceberg/write_rows/write_rows.h"

namespace py = pybind11;

namespace floe::python {
namespace {

// ---- errors ----------------------------------------------------------------------------------

// floe.Error and one subclass per ErrorKind, created at import (see PYBIND11_MODULE).
PyObject* error_base = nullptr;
std::vector<PyObject*> error_types;  // indexed by ErrorKind

[[noreturn]] void Raise(const Error& error) {
  const auto index = static_cast<size_t>(error.kind());
  PyObject* type = index < error_types.size() ? error_types[index] : error_base;
  PyErr_SetString(type, error.message().c_str());
  throw py::error_already_set();
}

template <typename T>
T Unwrap(Result<T> result) {
  if (!result.has_value()) Raise(result.error());
  if constexpr (!std::is_void_v<T>) return std::move(*result);
}

// ---- interruptible calls ---------------------------------------------------------------------

// Runs fn on a helper thread with the GIL released, as the file comment says; `interrupt` is
// called (without the GIL) once on Ctrl-C. Returns fn's value, or throws with KeyboardInterrupt
// set.
template <typename F>
auto Interruptible(F fn, const std::function<void()>& interrupt) -> decltype(fn()) {
  using R = decltype(fn());
  std::optional<R> out;
  std::mutex mutex;
  std::condition_variable done_cv;
  bool done = false;
  bool interrupted = false;
  {
    py::gil_scoped_release release;
    std::thread worker([&] {
      R value = fn();
      std::lock_guard lock(mutex);
      out.emplace(std::move(value));
      done = true;
      done_cv.notify_all();
    });
    while (true) {
      {
        std::unique_lock lock(mutex);
        if (done_cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return done; })) break;
      }
      if (interrupted) continue;
      bool signalled = false;
      {
        py::gil_scoped_acquire acquire;
        signalled = PyErr_CheckSignals() != 0;
      }
      if (signalled) {
        interrupted = true;
        interrupt();
      }
    }
    worker.join();
  }
  if (interrupted) throw py::error_already_set();
  return std::move(*out);
}

// ---- results ---------------------------------------------------------------------------------

using SessionPtr = std::shared_ptr<sql::Session>;

// A FILE* into memory (what ResultPrinter writes to), handed on to a Python write(str) in pieces.
struct MemoryFile {
  char* buffer = nullptr;
  size_t size = 0;
  size_t written = 0;
  std::FILE* file = open_memstream(&buffer, &size);

  MemoryFile() {
    if (file == nullptr) throw std::runtime_error("open_memstream failed");
  }
  ~MemoryFile() {
    std::fclose(file);
    std::free(buffer);
  }
  void FlushTo(const py::object& write) {
    std::fflush(file);
    if (size > written) write(py::str(buffer + written, size - written));
    written = size;
  }
};

// One statement's result. Rows are read once: by next_rows, print or the Arrow export, which
// takes the stream over.
class NativeResult {
 public:
  NativeResult(SessionPtr session, sql::StatementResult result)
      : session_(std::move(session)), result_(std::move(result)) {
    if (result_.rows != nullptr) rows_ = std::shared_ptr<sql::RowStream>(std::move(result_.rows));
  }
  ~NativeResult() {
    if (rows_ != nullptr) rows_->Cancel();
  }

  std::string kind() const {
    switch (result_.kind) {
      case sql::StatementResult::Kind::kRows:
        return "rows";
      case sql::StatementResult::Kind::kJob:
        return "job";
      default:
        return "message";
    }
  }
  const std::string& message() const { return result_.message; }
  const std::string& job_id() const { return result_.job_id; }
  bool changelog() const { return result_.changelog; }
  std::vector<std::string> column_names() const {
    std::vector<std::string> names;
    if (result_.schema == nullptr) return names;
    for (const Field& field : result_.schema->fields()) names.push_back(field.name);
    return names;
  }
  std::vector<std::string> column_types() const {
    std::vector<std::string> types;
    if (result_.schema == nullptr) return types;
    for (const Field& field : result_.schema->fields()) {
      std::string name = sql::scalar::SqlTypeName(*field.type);
      if (!field.nullable) name += " NOT NULL";
      types.push_back(std::move(name));
    }
    return types;
  }

  // The rows of the next batch (a list of row_classes instances), None at the end.
  py::object NextRows(const py::tuple& row_classes) {
    while (true) {
      std::optional<RecordBatch> batch = NextBatch();
      if (!batch) return py::none();
      if (batch->num_rows() == 0) continue;
      py::list rows;
      if (!AppendRows(*batch, row_classes.ptr(), rows.ptr())) throw py::error_already_set();
      return rows;
    }
  }

  // The tableau (or the session's result mode) through write(str), as `floe sql` shows it; a
  // changelog's rows as they arrive.
  void Print(const py::object& write) {
    if (rows_ == nullptr) throw py::value_error("this result's rows were already taken");
    const sql::SessionConfig& config = session_->config();
    cli::PrintOptions options{.mode = Unwrap(config.result_mode()),
                              .max_column_width = Unwrap(config.max_column_width())};
    MemoryFile text;
    cli::ResultPrinter printer(text.file, result_.schema, result_.changelog, options);
    printer.Begin();
    text.FlushTo(write);
    try {
      while (std::optional<RecordBatch> batch = NextBatch()) {
        printer.Add(*batch);
        text.FlushTo(write);
      }
    } catch (py::error_already_set& e) {
      if (e.matches(PyExc_KeyboardInterrupt)) {
        printer.End(true);
        text.FlushTo(write);
      }
      throw;
    }
    printer.End(false);
    text.FlushTo(write);
  }

  // The rest of the rows as an ArrowArrayStream in a PyCapsule (the Arrow PyCapsule protocol).
  // A requested schema (an "arrow_schema" capsule, which stays its owner's) is best-effort, as
  // the protocol allows: the rows keep floe's representation, but a request for other columns
  // (not a struct of as many fields) is refused.
  py::object ArrowStream(const py::object& requested_schema) {
    if (rows_ == nullptr) throw py::value_error("this result's rows were already taken");
    if (!requested_schema.is_none()) {
      auto* requested =
          static_cast<ArrowSchema*>(PyCapsule_GetPointer(requested_schema.ptr(), "arrow_schema"));
      if (requested == nullptr) throw py::error_already_set();
      const int64_t columns = result_.schema->num_fields();
      if (requested->format == nullptr || std::string_view(requested->format) != "+s" ||
          requested->n_children != columns) {
        Raise(Error(ErrorKind::kInvalidArgument,
                    fmt::format("the requested Arrow schema ({} with {} children) does not "
                                "describe this result's {} columns",
                                requested->format != nullptr ? requested->format : "no format",
                                requested->n_children, columns)));
      }
    }
    auto* stream = new ArrowArrayStream{};
    std::shared_ptr<sql::RowStream> rows = std::move(rows_);
    SessionPtr session = session_;  // the rows may need the session's catalogs
    ExportBatchStream(
        result_.schema, [rows, session]() { return rows->Next(); }, stream);
    PyObject* capsule = PyCapsule_New(stream, "arrow_array_stream", [](PyObject* object) {
      auto* s = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(object, "arrow_array_stream"));
      if (s == nullptr) {
        PyErr_Clear();
        return;
      }
      if (s->release != nullptr) s->release(s);
      delete s;
    });
    if (capsule == nullptr) {
      stream->release(stream);
      delete stream;
      throw py::error_already_set();
    }
    return py::reinterpret_steal<py::object>(capsule);
  }

  void Close() {
    if (rows_ != nullptr) rows_->Cancel();
    rows_.reset();
  }

 private:
  // Next batch with the GIL released and Ctrl-C cancelling the stream; nullopt at the end.
  std::optional<RecordBatch> NextBatch() {
    if (rows_ == nullptr) return std::nullopt;
    std::shared_ptr<sql::RowStream> rows = rows_;
    Result<std::optional<RecordBatch>> batch =
        Interruptible([&] { return rows->Next(); }, [&] { rows->Cancel(); });
    if (!batch.has_value()) {
      rows_.reset();
      Raise(batch.error());
    }
    if (!batch->has_value()) rows_.reset();
    return std::move(*batch);
  }

  SessionPtr session_;
  sql::StatementResult result_;
  std::shared_ptr<sql::RowStream> rows_;
};

// ---- the session -----------------------------------------------------------------------------

py::dict JobStatusDict(const sql::JobStatus& status, const std::string& summary) {
  py::dict out;
  out["id"] = status.id;
  out["name"] = status.name;
  out["state"] = std::string(sql::JobStateName(status.state));
  out["error"] = status.error;
  out["summary"] = summary;
  return out;
}

std::set<std::string> JobIds(sql::Session& session) {
  std::set<std::string> ids;
  for (const sql::JobStatus& job : session.jobs().List()) ids.insert(job.id);
  return ids;
}

template <typename T>
std::optional<T> Option(py::dict& options, const char* key) {
  if (!options.contains(key)) return std::nullopt;
  py::object value = options[key];
  PyDict_DelItemString(options.ptr(), key);
  if (value.is_none()) return std::nullopt;
  return value.cast<T>();
}

class NativeSession {
 public:
  NativeSession(std::optional<std::string> warehouse, std::string checkpoint_root) {
    sql::SessionOptions options;
    if (warehouse) options.embedded_warehouse = *warehouse;
    options.checkpoint_root = std::move(checkpoint_root);
    session_ = std::make_shared<sql::Session>(std::move(options));
    Unwrap(session_->Open());
  }

  std::vector<std::string> notes() const { return session_->notes(); }

  std::unique_ptr<NativeResult> ExecuteSql(const std::string& statement) {
    sql::Session& session = *session_;
    const std::set<std::string> before = JobIds(session);
    Result<sql::StatementResult> result =
        Interruptible([&] { return session.ExecuteSql(statement); },
                      [&] {
                        // Stop the jobs this statement started (a batch INSERT waits for its job).
                        for (const sql::JobStatus& job : session.jobs().List()) {
                          if (!before.contains(job.id) && job.state == sql::JobState::kRunning) {
                            (void)session.jobs().Stop(job.id, false);
                          }
                        }
                      });
    return std::make_unique<NativeResult>(session_, Unwrap(std::move(result)));
  }

  // Waits for the job's end, or at most timeout_ms (then raises TimeoutError, the job still
  // running); Ctrl-C stops the job.
  py::dict WaitJob(const std::string& id, std::optional<int64_t> timeout_ms) {
    sql::JobManager& jobs = session_->jobs();
    Result<sql::JobStatus> status = Interruptible(
        [&]() -> Result<sql::JobStatus> {
          if (!timeout_ms) return jobs.Wait(id);
          const auto deadline =
              std::chrono::steady_clock::now() + std::chrono::milliseconds(*timeout_ms);
          while (true) {
            FLOE_ASSIGN_OR_RETURN(sql::JobStatus now, jobs.Get(id));
            if (now.state != sql::JobState::kRunning ||
                std::chrono::steady_clock::now() >= deadline) {
              return now;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
          }
        },
        [&] { (void)jobs.Stop(id, false); });
    sql::JobStatus done = Unwrap(std::move(status));
    if (done.state == sql::JobState::kRunning) {
      PyErr_Format(PyExc_TimeoutError, "job %s (%s) is still running after %lld ms",
                   done.name.c_str(), done.id.c_str(), static_cast<long long>(*timeout_ms));
      throw py::error_already_set();
    }
    if (done.state == sql::JobState::kFailed || done.state == sql::JobState::kCanceled) {
      Raise(Error(done.state == sql::JobState::kCanceled ? ErrorKind::kCancelled : done.error_kind,
                  fmt::format("job {} ({}) {}: {}", done.name, done.id,
                              sql::JobStateName(done.state), done.error)));
    }
    return JobStatusDict(done, jobs.Summary(done));
  }
  py::dict JobStatus(const std::string& id) {
    sql::JobStatus status = Unwrap(session_->jobs().Get(id));
    return JobStatusDict(status, session_->jobs().Summary(status));
  }
  void CancelJob(const std::string& id) {
    sql::JobManager& jobs = session_->jobs();
    py::gil_scoped_release release;
    (void)Unwrap(jobs.Stop(id, false));
  }

  std::vector<std::string> Catalogs() const { return session_->CatalogNames(); }
  std::string CurrentCatalog() const { return session_->current_catalog(); }
  std::string CurrentDatabase() const { return session_->current_database(); }
  void UseCatalog(const std::string& name) { Unwrap(session_->UseCatalog(name)); }
  void UseDatabase(const std::string& name) {
    Unwrap(session_->UseDatabase(session_->current_catalog(), name));
  }
  void ConfigSet(const std::string& key, const std::string& value) {
    session_->config().Set(key, value);
  }
  std::optional<std::string> ConfigGet(const std::string& key) const {
    return session_->config().Get(key);
  }

  // WriteRows from Python rows or an Arrow stream into `destination` (a table or a template) of
  // the session's catalog `catalog` (the current one by default). Returns the committed
  // snapshots as a result.
  std::unique_ptr<NativeResult> WriteRows(const std::string& destination, const py::object& rows,
                                          py::dict options) {
    BatchSchemaPtr schema;
    std::vector<RecordBatch> batches;
    if (py::hasattr(rows, "__arrow_c_stream__")) {
      py::object capsule = rows.attr("__arrow_c_stream__")();
      auto* exported =
          static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(capsule.ptr(), "arrow_array_stream"));
      if (exported == nullptr) throw py::error_already_set();
      // The protocol's consumer moves the stream out of the capsule.
      ArrowArrayStream stream = *exported;
      exported->release = nullptr;
      py::gil_scoped_release release;
      batches = Unwrap(ImportBatchStream(&stream, &schema));
    } else {
      RecordBatch batch = Unwrap(RowsToBatch(rows.ptr()));
      schema = batch.schema();
      batches.push_back(std::move(batch));
    }
    std::string catalog_name =
        Option<std::string>(options, "catalog").value_or(session_->current_catalog());
    sql::SessionCatalog* catalog = Unwrap(session_->FindCatalog(catalog_name));
    if (catalog->catalog == nullptr) {
      Raise(Error(ErrorKind::kInvalidArgument,
                  fmt::format("catalog '{}' holds no Iceberg tables", catalog_name)));
    }
    std::string target = destination;
    if (target.find('.') == std::string::npos) {
      std::string database = catalog_name == session_->current_catalog()
                                 ? session_->current_database()
                                 : catalog->current_database;
      target = database + "." + target;
    }
    stream::ExecutionConfig config = Unwrap(session_->config().JobConfig());
    if (config.checkpoint_dir.empty()) config.checkpoint_dir = session_->options().checkpoint_root;
    auto env = std::make_unique<stream::StreamEnvironment>(config);
    stream::DataStream input = env->FromSource(
        std::make_shared<stream::CollectionSource>(schema, std::move(batches)), "python-rows");
    stream::WriteRows write = stream::WriteRows::Of(input);
    write.Catalog(catalog_name, catalog->properties).To(target);
    if (auto v = Option<std::vector<std::string>>(options, "partition_fields")) {
      write.PartitionFields(*v);
    }
    if (auto v = Option<std::vector<std::string>>(options, "sort_fields")) write.SortFields(*v);
    if (auto v = Option<std::map<std::string, std::string>>(options, "table_properties")) {
      write.TableProperties(*v);
    }
    if (auto v = Option<int64_t>(options, "triggering_frequency_ms")) {
      write.WithTriggeringFrequency(std::chrono::milliseconds(*v));
    }
    if (auto v = Option<int64_t>(options, "direct_write_byte_limit")) {
      write.WithDirectWriteByteLimit(*v);
    }
    if (auto v = Option<std::string>(options, "distribution_mode")) {
      write.WithDistributionMode(Unwrap(stream::ParseDistributionMode(*v)));
    }
    if (Option<bool>(options, "autosharding").value_or(false)) write.WithAutosharding();
    if (auto v = Option<std::vector<std::string>>(options, "keep")) write.Keep(*v);
    if (auto v = Option<std::vector<std::string>>(options, "drop")) write.Drop(*v);
    if (auto v = Option<std::string>(options, "only")) write.Only(*v);
    if (auto v = Option<std::string>(options, "branch")) write.ToBranch(*v);
    if (auto v = Option<std::vector<std::string>>(options, "upsert")) write.Upsert(*v);
    if (auto v = Option<std::map<std::string, std::string>>(options, "write_options")) {
      for (const auto& [key, value] : *v) write.Set(key, value);
    }
    if (auto v = Option<int>(options, "write_parallelism")) write.WriteParallelism(*v);
    if (auto v = Option<std::string>(options, "sink_id")) write.SinkId(*v);
    if (auto v = Option<bool>(options, "drop_unused_columns")) write.DropUnusedColumns(*v);
    if (!options.empty()) {
      Raise(Error(ErrorKind::kInvalidArgument,
                  fmt::format("write_rows has no option '{}'",
                              py::str(options.begin()->first).cast<std::string>())));
    }
    stream::DataStream snapshots = Unwrap(write.Apply());
    std::shared_ptr<stream::CollectedBatches> collected = env->Collect(snapshots, "snapshots");
    stream::StreamEnvironment& run = *env;
    Result<stream::JobResult> ran =
        Interruptible([&] { return run.Execute("write-rows_" + target); }, [&] { run.Cancel(); });
    Unwrap(std::move(ran));
    sql::StatementResult result =
        sql::StatementResult::Rows(stream::CommittedSnapshotSchema(),
                                   std::make_unique<sql::InMemoryRows>(collected->batches()));
    return std::make_unique<NativeResult>(session_, std::move(result));
  }

 private:
  SessionPtr session_;
};

}  // namespace
}  // namespace floe::python

PYBIND11_MODULE(_floe, m) {
  using namespace floe::python;
  using floe::ErrorKind;
  m.doc() = "The native part of floe's Python API; use the `floe` package.";
  if (!InitRowConversion()) throw py::error_already_set();
  m.def(
      "set_row_factory", [](py::object factory) { SetRowFactory(factory.ptr()); },
      py::arg("factory"), "Sets the factory(names, values) of ROW values (the package does).");

  error_base = PyErr_NewExceptionWithDoc("floe.Error", "An error floe reported.", nullptr, nullptr);
  m.add_object("Error", py::handle(error_base));
  struct Kind {
    ErrorKind kind;
    const char* name;
    PyObject* extra_base;
  };
  const Kind kinds[] = {
      {ErrorKind::kInvalidArgument, "InvalidArgumentError", PyExc_ValueError},
      {ErrorKind::kNotFound, "NotFoundError", PyExc_LookupError},
      {ErrorKind::kAlreadyExists, "AlreadyExistsError", nullptr},
      {ErrorKind::kCommitFailed, "ConflictError", nullptr},
      {ErrorKind::kCommitStateUnknown, "CommitStateUnknownError", nullptr},
      {ErrorKind::kIO, "IOError", PyExc_OSError},
      {ErrorKind::kCorruptData, "CorruptDataError", nullptr},
      {ErrorKind::kUnsupported, "UnsupportedError", PyExc_NotImplementedError},
      {ErrorKind::kInternal, "InternalError", nullptr},
      {ErrorKind::kCancelled, "CancelledError", nullptr},
      {ErrorKind::kResourceExhausted, "ResourceExhaustedError", nullptr},
  };
  error_types.assign(std::size(kinds), error_base);
  for (const Kind& kind : kinds) {
    py::tuple bases = kind.extra_base != nullptr
                          ? py::make_tuple(py::handle(error_base), py::handle(kind.extra_base))
                          : py::make_tuple(py::handle(error_base));
    PyObject* type =
        PyErr_NewException((std::string("floe.") + kind.name).c_str(), bases.ptr(), nullptr);
    if (type == nullptr) throw py::error_already_set();
    error_types[static_cast<size_t>(kind.kind)] = type;
    m.add_object(kind.name, py::handle(type));
  }

  py::class_<NativeResult>(m, "NativeResult")
      .def_property_readonly("kind", &NativeResult::kind)
      .def_property_readonly("message", &NativeResult::message)
      .def_property_readonly("job_id", &NativeResult::job_id)
      .def_property_readonly("changelog", &NativeResult::changelog)
      .def("column_names", &NativeResult::column_names)
      .def("column_types", &NativeResult::column_types)
      .def("next_rows", &NativeResult::NextRows, py::arg("row_classes"))
      .def("print", &NativeResult::Print, py::arg("write"))
      .def("arrow_stream", &NativeResult::ArrowStream, py::arg("requested_schema"))
      .def("close", &NativeResult::Close);

  py::class_<NativeSession>(m, "NativeSession")
      .def(py::init<std::optional<std::string>, std::string>(), py::arg("warehouse"),
           py::arg("checkpoint_root"))
      .def("notes", &NativeSession::notes)
      .def("execute_sql", &NativeSession::ExecuteSql, py::arg("statement"))
      .def("wait_job", &NativeSession::WaitJob, py::arg("job_id"), py::arg("timeout_ms"))
      .def("job_status", &NativeSession::JobStatus, py::arg("job_id"))
      .def("cancel_job", &NativeSession::CancelJob, py::arg("job_id"))
      .def("catalogs", &NativeSession::Catalogs)
      .def("current_catalog", &NativeSession::CurrentCatalog)
      .def("current_database", &NativeSession::CurrentDatabase)
      .def("use_catalog", &NativeSession::UseCatalog, py::arg("name"))
      .def("use_database", &NativeSession::UseDatabase, py::arg("name"))
      .def("config_set", &NativeSession::ConfigSet, py::arg("key"), py::arg("value"))
      .def("config_get", &NativeSession::ConfigGet, py::arg("key"))
      .def("write_rows", &NativeSession::WriteRows, py::arg("destination"), py::arg("rows"),
           py::arg("options"));
}
