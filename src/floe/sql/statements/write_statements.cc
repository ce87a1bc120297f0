#include "floe/sql/statements/write_statements.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <set>

#include "floe/catalog/catalog.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/sql/plan/query_planner.h"
#include "floe/sql/scalar/scalar_expr.h"
#include "floe/sql/statements/ddl_schema_internal.h"
#include "floe/sql/statements/iceberg_tables.h"
#include "floe/sql/statements/insert_columns_internal.h"
#include "floe/sql/statements/jobs.h"
#include "floe/sql/statements/table_statements.h"
#include "floe/sql/statements/write_statements_dynamic_internal.h"
#include "floe/stream/collect_sink.h"
#include "floe/stream/iceberg/iceberg_sink.h"
#include "floe/stream/iceberg/sink_options.h"
#include "floe/table/scan/batch_types.h"
#include "floe/table/table.h"
#include "floe/util/calendar.h"
#include "floe/util/strings.h"

namespace floe::sql {
namespace {

constexpr std::string_view kDmlSync = "table.dml-sync";
constexpr std::string_view kInfoPrefix = "[INFO] ";
constexpr std::string_view kSavepointDir = "state.savepoints.dir";

// The target of a write: where it lives and how job tasks load it again.
struct Target {
  ResolvedName name;
  std::shared_ptr<table::Table> table;
  stream::TableLoader loader;
};

// A connector table of default_catalog: writable when it is WITH ('connector' = 'iceberg').
Result<Target> LoadConnectorTarget(Session& session, ResolvedName name) {
  const std::string key = name.ns.levels.front() + "." + name.table;
  auto it = session.connector_tables().find(key);
  if (it == session.connector_tables().end()) {
    return NotFound("table '{}' does not exist", name.ToString());
  }
  std::string connector;
  for (const auto& [option, value] : it->second.options) {
    if (option == "connector") connector = value;
  }
  if (connector != "iceberg") {
    return InvalidArgument("table '{}' is a '{}' connector table: floe writes only Iceberg tables",
                           name.ToString(), connector);
  }
  FLOE_ASSIGN_OR_RETURN(stream::TableLoader loader, IcebergConnectorLoader(key, it->second));
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<table::Table> table, loader.Load());
  return Target{.name = std::move(name), .table = std::move(table), .loader = std::move(loader)};
}

Result<Target> LoadTarget(Session& session, const ObjectName& written) {
  FLOE_ASSIGN_OR_RETURN(ResolvedName name, session.ResolveTable(written));
  if (!name.metadata.empty()) {
    return InvalidArgument("{} is a metadata table: it cannot be written", name.ToString());
  }
  if (name.in_default_catalog()) return LoadConnectorTarget(session, std::move(name));
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<catalog::Catalog> catalog, session.IcebergCatalog(name));
  FLOE_ASSIGN_OR_RETURN(bool exists, catalog->TableExists(name.ident()));
  if (!exists) return NotFound("table '{}' does not exist", name.ToString());
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<table::Table> table,
                        table::Table::Load(catalog, name.ident()));
  FLOE_ASSIGN_OR_RETURN(stream::TableLoader loader, session.CatalogTableLoader(name));
  return Target{.name = std::move(name), .table = std::move(table), .loader = std::move(loader)};
}

Result<bool> OptionIsTrue(const SessionConfig& config, std::string_view key) {
  auto value = config.Get(key);
  if (!value.has_value()) return false;
  if (EqualsIgnoreCase(*value, "true")) return true;
  if (EqualsIgnoreCase(*value, "false")) return false;
  return InvalidArgument("option '{}': expected true or false, got '{}'", key, *value);
}

// The session's job configuration, with the checkpoint folder defaulting to the session's
// checkpoint root.
Result<stream::ExecutionConfig> JobConfig(Session& session) {
  FLOE_ASSIGN_OR_RETURN(stream::ExecutionConfig config, session.config().JobConfig());
  if (config.checkpoint_dir.empty()) config.checkpoint_dir = session.options().checkpoint_root;
  if (config.mode == stream::RuntimeMode::kStreaming && config.checkpoint_interval_ms > 0 &&
      config.checkpoint_dir.empty()) {
    return InvalidArgument(
        "'{}' is set but checkpoints have no folder: SET 'state.checkpoints.dir' = '/path'",
        option::kCheckpointInterval);
  }
  if (!config.checkpoint_dir.empty()) {
    config.checkpoint_dir = std::filesystem::absolute(config.checkpoint_dir).string();
  }
  return config;
}

// Where STOP JOB ... WITH SAVEPOINT writes: state.savepoints.dir, else a folder beside the
// checkpoints; empty when there is neither.
std::string SavepointDir(const Session& session, const stream::ExecutionConfig& config) {
  if (auto dir = session.config().Get(kSavepointDir)) {
    std::string_view path = *dir;
    if (path.starts_with("file://")) path.remove_prefix(7);
    return std::filesystem::absolute(std::string(path)).string();
  }
  if (config.checkpoint_dir.empty()) return {};
  return config.checkpoint_dir + "/savepoints";
}

// The OPTIONS hint of the target, as sink options.
Result<std::map<std::string, std::string>> HintOptions(const Session& session, const Options& hints,
                                                       const std::string& table_name) {
  std::map<std::string, std::string> options;
  if (hints.empty()) return options;
  FLOE_ASSIGN_OR_RETURN(bool enabled, session.config().dynamic_table_options_enabled());
  if (!enabled) {
    return InvalidArgument("OPTIONS hint on {}: hints need '{}' = 'true' (SET it first)",
                           table_name, option::kDynamicOptions);
  }
  for (const auto& [key, value] : hints) options[key] = value;
  return options;
}

// PARTITION (c = constant, ...): each c must be an identity partition column of the table.
Result<std::vector<std::pair<std::string, ScalarExprPtr>>> StaticPartition(
    const Insert& statement, const TableMetadata& metadata, const std::string& table_name) {
  std::vector<std::pair<std::string, ScalarExprPtr>> values;
  if (statement.partition.empty()) return values;
  const PartitionSpec& spec = *metadata.default_spec();
  const Schema& schema = *metadata.current_schema();
  if (spec.is_unpartitioned()) {
    return InvalidArgument("INSERT INTO {} PARTITION (...): the table is not partitioned",
                           table_name);
  }
  for (const auto& [column, expr] : statement.partition) {
    const NestedField* field = schema.FindField(column);
    bool identity = false;
    if (field != nullptr) {
      for (const ::floe::PartitionField* partition : spec.FieldsBySourceId(field->id)) {
        identity |= partition->transform.is_identity();
      }
    }
    if (!identity) {
      return InvalidArgument(
          "INSERT INTO {} PARTITION (...): '{}' is not an identity partition column of the "
          "table (partitioned by {})",
          table_name, column, spec.ToString());
    }
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr value, BindScalar(*expr, Scope()));
    if (!value->constant().has_value()) {
      return InvalidArgument("INSERT INTO {} PARTITION (...): the value of '{}' is not a constant",
                             table_name, column);
    }
    values.emplace_back(column, std::move(value));
  }
  return values;
}

std::string Timestamp(int64_t ms) {
  std::string out;
  AppendIsoTimestamp(out, ms, 1000, /*utc=*/false);
  return out;
}

// What a write statement needs beyond its target: the query, the written column list, the
// static partition values, the hints, and whether it overwrites.
struct WriteRequest {
  const Query* query = nullptr;
  std::vector<std::string> columns;
  const Insert* partition_source = nullptr;  // for PARTITION (...)
  Options hints;
  bool overwrite = false;
  std::string verb = "INSERT INTO";
};

Result<StatementResult> SubmitWrite(Session& session, const stream::ExecutionConfig& config,
                                    std::unique_ptr<stream::StreamEnvironment> env,
                                    const std::string& table_name, const std::string& verb,
                                    bool bounded, std::function<Result<StatementResult>()> finished,
                                    std::function<void()> on_end = {});

Result<StatementResult> RunWrite(Session& session, const Target& target,
                                 const WriteRequest& request) {
  const std::string table_name = target.name.ToString();
  const TableMetadataPtr metadata = target.table->metadata();
  FLOE_ASSIGN_OR_RETURN(stream::ExecutionConfig config, JobConfig(session));
  const bool streaming = config.mode == stream::RuntimeMode::kStreaming;

  FLOE_ASSIGN_OR_RETURN(auto options, HintOptions(session, request.hints, table_name));
  if (request.overwrite) options["overwrite-enabled"] = "true";
  auto resolved = stream::SinkOptions::Resolve(*metadata, options);
  if (!resolved.has_value()) {
    Error error = std::move(resolved).error();
    error.AddContext(fmt::format("{} {}", request.verb, table_name));
    return std::unexpected(std::move(error));
  }
  if (resolved->overwrite && streaming) {
    return InvalidArgument(
        "INSERT OVERWRITE {}: overwriting is not supported in streaming mode (an unbounded "
        "stream has no end to overwrite at); SET 'execution.runtime-mode' = 'batch' first",
        table_name);
  }

  std::vector<std::pair<std::string, ScalarExprPtr>> static_values;
  if (request.partition_source != nullptr) {
    FLOE_ASSIGN_OR_RETURN(static_values,
                          StaticPartition(*request.partition_source, *metadata, table_name));
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<Field> fields,
                        table::ToBatchFields(*metadata->current_schema()));
  auto table_columns = std::make_shared<const BatchSchema>(std::move(fields));

  auto env = std::make_unique<stream::StreamEnvironment>(config);
  FLOE_ASSIGN_OR_RETURN(PlannedQuery planned, PlanQuery(session, *request.query, *env));
  if (planned.changelog && resolved->equality_field_ids.empty()) {
    return InvalidArgument(
        "{} {}: the query produces updates and deletes, which the table can only take with a "
        "primary key on a format v2 table (or with 'upsert-enabled')",
        request.verb, table_name);
  }
  FLOE_ASSIGN_OR_RETURN(InsertMapping mapping,
                        MapInsertColumns(table_name, table_columns, *planned.stream.schema(),
                                         request.columns, static_values));
  auto rows = std::make_shared<std::atomic<int64_t>>(0);
  stream::DataStream projected = ProjectToTable(planned.stream, std::move(mapping), rows);
  FLOE_RETURN_IF_ERROR(
      stream::IcebergSink::ForRows(projected).TableLoader(target.loader).SetAll(options).Append());

  // The message may be made after this statement returned (a background job's, at the session's
  // end): it holds what it needs by value.
  // The table as the job left it, read when it ended (later jobs may have committed since).
  auto refreshed = std::make_shared<Status>();
  return SubmitWrite(
      session, config, std::move(env), table_name, request.verb, planned.bounded,
      [table = target.table, metadata, resolved = *resolved, rows, table_name,
       refreshed]() -> Result<StatementResult> {
        FLOE_RETURN_IF_ERROR(*refreshed);
        const TableMetadataPtr after = table->metadata();
        const SnapshotRef* ref = after->FindRef(resolved.branch);
        std::string snapshot = "no new snapshot";
        if (ref != nullptr &&
            (metadata->FindRef(resolved.branch) == nullptr ||
             metadata->FindRef(resolved.branch)->snapshot_id != ref->snapshot_id)) {
          snapshot = fmt::format("snapshot {}", ref->snapshot_id);
        }
        const int64_t written = rows->load();
        const std::string_view noun = written == 1 ? "row" : "rows";
        if (resolved.overwrite) {
          return StatementResult::Message(fmt::format("[INFO] Overwrote {} with {} {} ({}).",
                                                      table_name, written, noun, snapshot));
        }
        return StatementResult::Message(fmt::format("[INFO] Inserted {} {} into {} ({}).", written,
                                                    noun, table_name, snapshot));
      },
      // The sink commits through its own catalog instance: the session's may cache the old state.
      [table = target.table, ident = target.name.ident(), refreshed] {
        table->catalog().Invalidate(ident);
        *refreshed = table->Refresh();
      });
}

// INSERT INTO a dynamic sink table (write_statements_dynamic_internal.h): the query's rows, lined
// up with the table's columns, go through WriteRows to the tables their fields name.
Result<StatementResult> RunDynamicWrite(Session& session, const ResolvedName& name,
                                        const ConnectorTable& table, const Insert& statement) {
  const std::string table_name = name.ToString();
  if (statement.overwrite || !statement.partition.empty()) {
    return InvalidArgument(
        "{} {}: a dynamic sink table takes INSERT INTO without PARTITION (...): its rows are "
        "spread over many tables",
        statement.overwrite ? "INSERT OVERWRITE" : "INSERT INTO", table_name);
  }
  FLOE_ASSIGN_OR_RETURN(stream::ExecutionConfig config, JobConfig(session));
  FLOE_ASSIGN_OR_RETURN(auto hints, HintOptions(session, statement.hints, table_name));
  FLOE_ASSIGN_OR_RETURN(BatchSchemaPtr columns, DynamicSinkColumns(table));
  auto env = std::make_unique<stream::StreamEnvironment>(config);
  FLOE_ASSIGN_OR_RETURN(PlannedQuery planned, PlanQuery(session, *statement.query, *env));
  if (planned.changelog && table.primary_key.empty()) {
    return InvalidArgument(
        "INSERT INTO {}: the query produces updates and deletes, which a dynamic sink takes only "
        "with a PRIMARY KEY and 'upsert-enabled'",
        table_name);
  }
  FLOE_ASSIGN_OR_RETURN(
      InsertMapping mapping,
      MapInsertColumns(table_name, columns, *planned.stream.schema(), statement.columns, {}));
  auto rows = std::make_shared<std::atomic<int64_t>>(0);
  stream::DataStream projected = ProjectToTable(planned.stream, std::move(mapping), rows);
  FLOE_ASSIGN_OR_RETURN(stream::DataStream snapshots,
                        AddDynamicSink(ConnectorKey(name), table, hints, projected));
  // The committed snapshots make the message of a write that is waited for or that ends by itself;
  // an unbounded job's are not kept (they would pile up while it runs).
  FLOE_ASSIGN_OR_RETURN(bool sync, OptionIsTrue(session.config(), kDmlSync));
  auto committed = std::make_shared<stream::CollectedBatches>();
  if (config.mode == stream::RuntimeMode::kBatch || sync || planned.bounded) {
    committed = env->Collect(snapshots, "snapshots");
  }
  return SubmitWrite(session, config, std::move(env), table_name, "INSERT INTO", planned.bounded,
                     [committed, rows, table_name]() -> Result<StatementResult> {
                       std::set<std::string> tables;
                       for (const RecordBatch& batch : committed->batches()) {
                         for (int64_t i = 0; i < batch.num_rows(); ++i) {
                           tables.emplace(batch.column(0).GetString(i));
                         }
                       }
                       const int64_t written = rows->load();
                       return StatementResult::Message(fmt::format(
                           "[INFO] Inserted {} {} into {} ({} {} in {} {}).", written,
                           written == 1 ? "row" : "rows", table_name, committed->num_rows(),
                           committed->num_rows() == 1 ? "snapshot" : "snapshots", tables.size(),
                           tables.size() == 1 ? "table" : "tables"));
                     });
}

// Submits a write's job: every write is a job of the session (SHOW JOBS lists it); batch and
// dml-sync ones are waited for and `finished` makes their message. Names are unique within the
// session, so each streaming INSERT keeps its own checkpoints.
Result<StatementResult> SubmitWrite(Session& session, const stream::ExecutionConfig& config,
                                    std::unique_ptr<stream::StreamEnvironment> env,
                                    const std::string& table_name, const std::string& verb,
                                    bool bounded, std::function<Result<StatementResult>()> finished,
                                    std::function<void()> on_end) {
  const bool streaming = config.mode == stream::RuntimeMode::kStreaming;
  const std::string job_name = session.jobs().UniqueName(
      session.config().Get(option::kPipelineName).value_or("insert-into_" + table_name));
  FLOE_ASSIGN_OR_RETURN(bool sync, OptionIsTrue(session.config(), kDmlSync));
  JobInfo info{.bounded = bounded,
               .summary = [finished]() -> Result<std::string> {
                 FLOE_ASSIGN_OR_RETURN(StatementResult result, finished());
                 std::string_view message = result.message;
                 if (message.starts_with(kInfoPrefix)) message.remove_prefix(kInfoPrefix.size());
                 return std::string(message);
               },
               .on_end = std::move(on_end)};
  std::string id = session.jobs().Submit(job_name, std::move(env), SavepointDir(session, config),
                                         std::move(info));
  if (streaming && !sync) {
    std::string message =
        fmt::format("[INFO] Submitted job {} ({}): SHOW JOBS lists it, STOP JOB '{}' stops it.", id,
                    job_name, id);
    if (!bounded && config.checkpoint_interval_ms == 0) {
      // As in Flink, the Iceberg sink commits at checkpoints: without them, only at the end.
      message += fmt::format(
          "\n[WARNING] '{}' is not set: the sink commits only when the job ends (STOP JOB, or "
          "SIGINT/SIGTERM once the client has run its statements).",
          option::kCheckpointInterval);
    }
    StatementResult result = StatementResult::Message(std::move(message));
    result.kind = StatementResult::Kind::kJob;
    result.job_id = std::move(id);
    return result;
  }
  FLOE_ASSIGN_OR_RETURN(JobStatus status, session.jobs().Wait(id));
  if (status.state != JobState::kFinished) {
    return std::unexpected(Error(
        status.error_kind, fmt::format("{} {}: job {} ({}) {}: {}", verb, table_name, job_name, id,
                                       JobStateName(status.state), status.error)));
  }
  return finished();
}

// The Iceberg type of each query column: the types a table can hold, with the small integers
// widened to INT as Flink's conversion table does (the insert then casts them).
Result<std::vector<Field>> StorableFields(const BatchSchema& query) {
  std::vector<Field> fields;
  for (const Field& field : query.fields()) {
    Field out = field;
    out.field_id.reset();
    switch (field.type->kind()) {
      case ::floe::TypeKind::kInt8:
      case ::floe::TypeKind::kInt16:
        out.type = ::floe::DataType::Int32();
        break;
      default:
        break;
    }
    fields.push_back(std::move(out));
  }
  return fields;
}

}  // namespace

Result<StatementResult> Execute(Session& session, const Insert& statement) {
  FLOE_ASSIGN_OR_RETURN(ResolvedName name, session.ResolveTable(statement.table));
  if (name.metadata.empty() && name.in_default_catalog()) {
    auto it = session.connector_tables().find(ConnectorKey(name));
    if (it != session.connector_tables().end() && IsDynamicSinkTable(it->second)) {
      return RunDynamicWrite(session, name, it->second, statement);
    }
  }
  FLOE_ASSIGN_OR_RETURN(Target target, LoadTarget(session, statement.table));
  WriteRequest request{.query = statement.query.get(),
                       .columns = statement.columns,
                       .partition_source = &statement,
                       .hints = statement.hints,
                       .overwrite = statement.overwrite,
                       .verb = statement.overwrite ? "INSERT OVERWRITE" : "INSERT INTO"};
  return RunWrite(session, target, request);
}

Result<StatementResult> Execute(Session& session, const ShowJobs&) {
  std::vector<std::vector<std::string>> rows;
  for (const JobStatus& job : session.jobs().List()) {
    rows.push_back(
        {job.id, job.name, std::string(JobStateName(job.state)), Timestamp(job.start_time_ms)});
  }
  return StatementResult::StringTable({"job id", "job name", "status", "start time"}, rows);
}

Result<StatementResult> Execute(Session& session, const StopJob& statement) {
  FLOE_ASSIGN_OR_RETURN(
      std::optional<std::string> savepoint,
      session.jobs().Stop(statement.id, statement.with_savepoint || statement.with_drain));
  if (!savepoint.has_value()) return StatementResult::Message(std::string(kStatementSucceeded));
  return StatementResult::StringTable({"savepoint path"}, {{*savepoint}});
}

Result<StatementResult> ExecuteCreateTableAs(Session& session, const CreateTable& statement) {
  if (statement.as_query == nullptr) {
    return InvalidArgument("CREATE TABLE ... AS needs a query");
  }
  FLOE_ASSIGN_OR_RETURN(ResolvedName name, session.ResolveTable(statement.name));
  const std::string table_name = name.ToString();
  if (!statement.columns.empty() || !statement.primary_key.empty()) {
    return InvalidArgument(
        "CREATE TABLE {} AS SELECT takes its columns from the query: it cannot list columns or a "
        "primary key",
        table_name);
  }
  if (statement.like.has_value()) {
    return InvalidArgument("CREATE TABLE {} cannot have both LIKE and AS SELECT", table_name);
  }
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<catalog::Catalog> catalog, session.IcebergCatalog(name));
  FLOE_ASSIGN_OR_RETURN(bool exists, catalog->TableExists(name.ident()));
  if (exists) {
    if (statement.if_not_exists) return StatementResult::Message(std::string(kStatementSucceeded));
    return AlreadyExists("table '{}' already exists", table_name);
  }

  // The query's columns decide the table's; planning it once on a throwaway graph gives them.
  BatchSchemaPtr query_schema;
  {
    FLOE_ASSIGN_OR_RETURN(stream::ExecutionConfig config, JobConfig(session));
    stream::StreamEnvironment env(config);
    FLOE_ASSIGN_OR_RETURN(PlannedQuery planned, PlanQuery(session, *statement.as_query, env));
    query_schema = planned.stream.schema();
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<Field> fields, StorableFields(*query_schema));
  auto schema = table::SchemaFromBatchFields(fields);
  if (!schema.has_value()) {
    Error error = std::move(schema).error();
    error.AddContext(fmt::format("CREATE TABLE {} AS SELECT", table_name));
    return std::unexpected(std::move(error));
  }
  catalog::CreateTableRequest request{.schema = *schema};
  if (!statement.partitioned_by.empty()) {
    FLOE_ASSIGN_OR_RETURN(request.spec, ToPartitionSpec(**schema, statement.partitioned_by));
  }
  FLOE_ASSIGN_OR_RETURN(request.properties, ToStringMap(statement.options, "WITH"));
  if (auto it = request.properties.find("location"); it != request.properties.end()) {
    request.location = it->second;
    request.properties.erase(it);
  }
  FLOE_ASSIGN_OR_RETURN(bool ns_exists, catalog->NamespaceExists(name.ns));
  if (!ns_exists) {
    return NotFound("database '{}' does not exist in catalog '{}'", name.ns.ToString(),
                    name.catalog);
  }
  FLOE_RETURN_IF_ERROR(catalog->CreateTable(name.ident(), request));

  // A CTAS that fails before its rows are written leaves no table behind.
  auto written = [&]() -> Result<StatementResult> {
    FLOE_ASSIGN_OR_RETURN(Target target, LoadTarget(session, statement.name));
    WriteRequest write{.query = statement.as_query.get(), .verb = "CREATE TABLE AS"};
    return RunWrite(session, target, write);
  }();
  if (!written.has_value()) {
    (void)catalog->DropTable(name.ident(), /*purge=*/true);
    return written;
  }
  return written;
}

}  // namespace floe::sql
