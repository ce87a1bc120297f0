#include "floe/sql/statements/call_statements.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "floe/batch/value.h"
#include "floe/expr/expression.h"
#include "floe/sql/scalar/table_filter.h"
#include "floe/table/actions/remove_orphan_files.h"
#include "floe/table/actions/rewrite_data_files.h"
#include "floe/table/table.h"
#include "floe/table/update/expire_snapshots.h"
#include "floe/table/update/manage_snapshots.h"
#include "floe/table/update/rewrite_manifests.h"
#include "floe/util/calendar.h"

namespace floe::sql {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  std::ranges::transform(out, out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

// The arguments of one call by parameter name, checked against the procedure's parameters.
class Arguments {
 public:
  Arguments(std::string procedure, std::map<std::string, const Expr*> values)
      : procedure_(std::move(procedure)), values_(std::move(values)) {}

  // Given and not NULL (Spark treats a NULL argument as not given).
  bool has(std::string_view name) const {
    auto it = values_.find(std::string(name));
    return it != values_.end() &&
           !(it->second->kind == ExprKind::kLiteral && it->second->literal == LiteralKind::kNull);
  }
  Result<Value> Get(std::string_view name) const;
  Result<std::string> String(std::string_view name) const;
  Result<int64_t> Long(std::string_view name) const;
  Result<bool> Bool(std::string_view name) const;
  // A TIMESTAMP literal (UTC), or milliseconds since the epoch.
  Result<int64_t> TimestampMs(std::string_view name) const;
  Result<std::vector<int64_t>> LongArray(std::string_view name) const;
  Result<std::map<std::string, std::string>> StringMap(std::string_view name) const;

 private:
  Error WrongType(std::string_view name, std::string_view expected) const {
    return InvalidArgument("{}: argument '{}' must be {}", procedure_, name, expected).error();
  }

  std::string procedure_;
  std::map<std::string, const Expr*> values_;
};

// The value of an argument: a constant expression, or ARRAY[...] / MAP[...] / map(...) of
// constants (collection constructors are argument syntax here; their elements are evaluated by
// the scalar evaluator).
Result<Value> ArgumentValue(const Expr& expr) {
  if (expr.kind == ExprKind::kFunction && expr.name.size() == 1) {
    const std::string name = Lower(expr.name[0]);
    if (name == "array" || name == "map") {
      std::vector<Value> values;
      for (const ExprPtr& arg : expr.args) {
        FLOE_ASSIGN_OR_RETURN(Value value, ArgumentValue(*arg));
        values.push_back(std::move(value));
      }
      if (name == "array") return Value(ListValue{std::move(values)});
      if (values.size() % 2 != 0) return InvalidArgument("MAP needs key, value pairs");
      MapValue map;
      for (size_t i = 0; i < values.size(); i += 2) {
        map.entries.emplace_back(values[i], values[i + 1]);
      }
      return Value(std::move(map));
    }
  }
  return EvaluateConstant(expr);
}

Result<Value> Arguments::Get(std::string_view name) const {
  auto it = values_.find(std::string(name));
  if (it == values_.end()) {
    return InvalidArgument("{}: missing argument '{}'", procedure_, name);
  }
  Result<Value> value = ArgumentValue(*it->second);
  if (!value) {
    return InvalidArgument("{}: argument '{}': {}", procedure_, name, value.error().message());
  }
  return value;
}

Result<std::string> Arguments::String(std::string_view name) const {
  FLOE_ASSIGN_OR_RETURN(Value value, Get(name));
  if (!value.is<std::string>()) return std::unexpected(WrongType(name, "a string"));
  return value.get<std::string>();
}

Result<int64_t> Arguments::Long(std::string_view name) const {
  FLOE_ASSIGN_OR_RETURN(Value value, Get(name));
  if (!value.is<int64_t>()) return std::unexpected(WrongType(name, "an integer"));
  return value.get<int64_t>();
}

Result<bool> Arguments::Bool(std::string_view name) const {
  FLOE_ASSIGN_OR_RETURN(Value value, Get(name));
  if (!value.is<bool>()) return std::unexpected(WrongType(name, "a BOOLEAN"));
  return value.get<bool>();
}

Result<int64_t> Arguments::TimestampMs(std::string_view name) const {
  FLOE_ASSIGN_OR_RETURN(Value value, Get(name));
  if (value.is<int64_t>()) return value.get<int64_t>();
  if (!value.is<TimestampValue>()) {
    return std::unexpected(WrongType(name, "a TIMESTAMP or milliseconds since the epoch"));
  }
  // TIMESTAMP '...' is a wall-clock time, read as UTC.
  const TimestampValue& ts = value.get<TimestampValue>();
  return FloorDiv(ts.value, ts.unit == TimeUnit::kNano ? 1'000'000 : 1'000);
}

Result<std::vector<int64_t>> Arguments::LongArray(std::string_view name) const {
  FLOE_ASSIGN_OR_RETURN(Value value, Get(name));
  if (!value.is<ListValue>()) return std::unexpected(WrongType(name, "an ARRAY of integers"));
  std::vector<int64_t> out;
  for (const Value& element : value.get<ListValue>().elements) {
    if (!element.is<int64_t>()) return std::unexpected(WrongType(name, "an ARRAY of integers"));
    out.push_back(element.get<int64_t>());
  }
  return out;
}

Result<std::map<std::string, std::string>> Arguments::StringMap(std::string_view name) const {
  FLOE_ASSIGN_OR_RETURN(Value value, Get(name));
  if (!value.is<MapValue>()) return std::unexpected(WrongType(name, "a MAP of strings"));
  std::map<std::string, std::string> out;
  for (const auto& [key, item] : value.get<MapValue>().entries) {
    if (!key.is<std::string>() || !item.is<std::string>()) {
      return std::unexpected(WrongType(name, "a MAP of strings"));
    }
    out[key.get<std::string>()] = item.get<std::string>();
  }
  return out;
}

// ---- procedures ----

struct Procedure {
  std::string_view name;
  std::vector<std::string_view> parameters;  // in positional order
  std::vector<std::string_view> required;
  std::function<Result<StatementResult>(Session&, const std::string& catalog, const Arguments&)>
      run;
};

// `db.t` (or `t`, `cat.db.t`) from a string argument, in the catalog the procedure was called in.
Result<std::shared_ptr<table::Table>> LoadTable(Session& session, const std::string& catalog,
                                                const std::string& text) {
  ObjectName name;
  size_t start = 0;
  while (true) {
    size_t dot = text.find('.', start);
    std::string part = text.substr(start, dot == std::string::npos ? dot : dot - start);
    if (part.size() >= 2 && part.front() == '`' && part.back() == '`') {
      part = part.substr(1, part.size() - 2);
    }
    name.parts.push_back(std::move(part));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (!catalog.empty() && name.parts.size() < 3) {
    // In the catalog the procedure was called in: `t` in that catalog's current database.
    if (name.parts.size() == 1) {
      FLOE_ASSIGN_OR_RETURN(SessionCatalog * found, session.FindCatalog(catalog));
      name.parts.insert(name.parts.begin(), found->current_database);
    }
    name.parts.insert(name.parts.begin(), catalog);
  }
  FLOE_ASSIGN_OR_RETURN(ResolvedName resolved, session.ResolveTable(name));
  if (!resolved.metadata.empty()) {
    return InvalidArgument("'{}' is a metadata table, not a table", text);
  }
  FLOE_ASSIGN_OR_RETURN(auto iceberg, session.IcebergCatalog(resolved));
  Result<std::shared_ptr<table::Table>> table = table::Table::Load(iceberg, resolved.ident());
  if (!table && table.error().kind() == ErrorKind::kNotFound) {
    return NotFound("table '{}' does not exist", resolved.ToString());
  }
  return table;
}

Result<StatementResult> OneRow(std::vector<Field> fields, std::vector<Value> row) {
  auto schema = std::make_shared<const BatchSchema>(std::move(fields));
  std::vector<Array> arrays;
  for (int i = 0; i < schema->num_fields(); ++i) {
    FLOE_ASSIGN_OR_RETURN(Array array, MakeArray(schema->field(i).type, {&row[i], 1}));
    arrays.push_back(std::move(array));
  }
  FLOE_ASSIGN_OR_RETURN(RecordBatch batch, RecordBatch::Make(schema, std::move(arrays), 1));
  std::vector<RecordBatch> batches;
  batches.push_back(std::move(batch));
  return StatementResult::Rows(schema, std::make_unique<InMemoryRows>(std::move(batches)));
}

// A result of one STRING column.
Result<StatementResult> StringColumn(std::string name, const std::vector<std::string>& values) {
  auto schema = std::make_shared<const BatchSchema>(
      std::vector<Field>{Field{std::move(name), floe::DataType::String(), false}});
  std::vector<Value> cells(values.begin(), values.end());
  FLOE_ASSIGN_OR_RETURN(Array array, MakeArray(schema->field(0).type, cells));
  std::vector<Array> arrays;
  arrays.push_back(std::move(array));
  FLOE_ASSIGN_OR_RETURN(RecordBatch batch, RecordBatch::Make(schema, std::move(arrays),
                                                             static_cast<int64_t>(cells.size())));
  std::vector<RecordBatch> batches;
  batches.push_back(std::move(batch));
  return StatementResult::Rows(schema, std::make_unique<InMemoryRows>(std::move(batches)));
}

Field LongField(std::string name) { return Field{std::move(name), floe::DataType::Int64(), false}; }
Field IntField(std::string name) { return Field{std::move(name), floe::DataType::Int32(), false}; }

// The files a WHERE text selects: its conjuncts that map to Iceberg predicates on the table's
// columns. A conjunct that does not map selects more files, never fewer, and a rewrite of more
// files changes no row.
Result<expr::ExprPtr> WhereFilter(const table::Table& table, const std::string& where) {
  Result<TableFilter> filter = BindTableFilter(where, *table.metadata()->current_schema());
  if (!filter) {
    return InvalidArgument("rewrite_data_files: where '{}': {}", where, filter.error().message());
  }
  return ToIcebergFilter(*filter->predicate, filter->scope);
}

Result<StatementResult> RewriteDataFiles(Session& session, const std::string& catalog,
                                         const Arguments& args) {
  FLOE_ASSIGN_OR_RETURN(std::string name, args.String("table"));
  FLOE_ASSIGN_OR_RETURN(auto table, LoadTable(session, catalog, name));
  if (args.has("strategy")) {
    FLOE_ASSIGN_OR_RETURN(std::string strategy, args.String("strategy"));
    if (Lower(strategy) != "binpack") {
      return Unsupported("rewrite_data_files: strategy '{}' is not supported (only binpack)",
                         strategy);
    }
  }
  if (args.has("sort_order")) {
    return Unsupported("rewrite_data_files: sort_order is not supported (only binpack)");
  }
  std::map<std::string, std::string> option_map;
  if (args.has("options")) {
    FLOE_ASSIGN_OR_RETURN(option_map, args.StringMap("options"));
  }
  FLOE_ASSIGN_OR_RETURN(table::RewriteDataFilesOptions options,
                        table::RewriteDataFilesOptions::Parse(option_map));
  if (args.has("where")) {
    FLOE_ASSIGN_OR_RETURN(std::string where, args.String("where"));
    FLOE_ASSIGN_OR_RETURN(options.filter, WhereFilter(*table, where));
  }
  FLOE_ASSIGN_OR_RETURN(table::RewriteDataFilesResult result,
                        table::RewriteDataFiles(*table, options));
  return OneRow({IntField("rewritten_data_files_count"), IntField("added_data_files_count"),
                 LongField("rewritten_bytes_count"), IntField("failed_data_files_count")},
                {result.rewritten_data_files, result.added_data_files, result.rewritten_bytes,
                 result.failed_data_files});
}

Result<StatementResult> ExpireSnapshots(Session& session, const std::string& catalog,
                                        const Arguments& args) {
  FLOE_ASSIGN_OR_RETURN(std::string name, args.String("table"));
  FLOE_ASSIGN_OR_RETURN(auto table, LoadTable(session, catalog, name));
  std::unique_ptr<table::ExpireSnapshots> expire = table->NewExpireSnapshots();
  if (args.has("older_than")) {
    FLOE_ASSIGN_OR_RETURN(int64_t ms, args.TimestampMs("older_than"));
    expire->ExpireOlderThan(ms);
  }
  if (args.has("retain_last")) {
    FLOE_ASSIGN_OR_RETURN(int64_t n, args.Long("retain_last"));
    if (n < 1 || n > INT32_MAX) {
      return InvalidArgument("expire_snapshots: retain_last must be at least 1, got {}", n);
    }
    expire->RetainLast(static_cast<int32_t>(n));
  }
  if (args.has("snapshot_ids")) {
    FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> ids, args.LongArray("snapshot_ids"));
    for (int64_t id : ids) expire->ExpireSnapshotId(id);
  }
  FLOE_RETURN_IF_ERROR(expire->Commit());
  const auto& counts = expire->deleted_counts();
  return OneRow(
      {LongField("deleted_data_files_count"), LongField("deleted_position_delete_files_count"),
       LongField("deleted_equality_delete_files_count"), LongField("deleted_manifest_files_count"),
       LongField("deleted_manifest_lists_count"), LongField("deleted_statistics_files_count")},
      {counts.data_files, counts.position_delete_files, counts.equality_delete_files,
       counts.manifests, counts.manifest_lists, int64_t{0}});
}

Result<StatementResult> RemoveOrphanFiles(Session& session, const std::string& catalog,
                                          const Arguments& args) {
  FLOE_ASSIGN_OR_RETURN(std::string name, args.String("table"));
  FLOE_ASSIGN_OR_RETURN(auto table, LoadTable(session, catalog, name));
  table::RemoveOrphanFilesOptions options;
  if (args.has("older_than")) {
    FLOE_ASSIGN_OR_RETURN(options.older_than_ms, args.TimestampMs("older_than"));
  }
  if (args.has("location")) {
    FLOE_ASSIGN_OR_RETURN(options.location, args.String("location"));
  }
  if (args.has("dry_run")) {
    FLOE_ASSIGN_OR_RETURN(options.dry_run, args.Bool("dry_run"));
  }
  FLOE_ASSIGN_OR_RETURN(table::RemoveOrphanFilesResult result,
                        table::RemoveOrphanFiles(*table, options));
  return StringColumn("orphan_file_location", result.orphan_files);
}

// Spark's use_caching only chooses how Spark reads the manifests: accepted, and without effect.
Result<StatementResult> RewriteManifests(Session& session, const std::string& catalog,
                                         const Arguments& args) {
  FLOE_ASSIGN_OR_RETURN(std::string name, args.String("table"));
  FLOE_ASSIGN_OR_RETURN(auto table, LoadTable(session, catalog, name));
  if (args.has("use_caching")) FLOE_RETURN_IF_ERROR(args.Bool("use_caching"));
  auto rewrite = table->NewRewriteManifests();
  if (args.has("spec_id")) {
    FLOE_ASSIGN_OR_RETURN(int64_t spec_id, args.Long("spec_id"));
    if (spec_id < 0 || spec_id > INT32_MAX || !table->metadata()->SpecById(spec_id)) {
      return InvalidArgument("rewrite_manifests: table '{}' has no partition spec {}", name,
                             spec_id);
    }
    rewrite->SpecId(static_cast<int32_t>(spec_id));
  }
  // Nothing to rewrite in a table without snapshots (Spark's action commits nothing then).
  if (table->metadata()->current_snapshot() != nullptr) FLOE_RETURN_IF_ERROR(rewrite->Commit());
  return OneRow({IntField("rewritten_manifests_count"), IntField("added_manifests_count")},
                {rewrite->rewritten(), rewrite->added()});
}

// rollback_to_snapshot, rollback_to_timestamp and set_current_snapshot: one ManageSnapshots step.
Result<StatementResult> MoveCurrent(Session& session, const std::string& catalog,
                                    const Arguments& args, std::string_view procedure) {
  FLOE_ASSIGN_OR_RETURN(std::string name, args.String("table"));
  FLOE_ASSIGN_OR_RETURN(auto table, LoadTable(session, catalog, name));
  const std::optional<int64_t> previous = table->metadata()->current_snapshot_id();
  std::unique_ptr<table::ManageSnapshots> manage = table->NewManageSnapshots();
  if (procedure == "rollback_to_snapshot") {
    FLOE_ASSIGN_OR_RETURN(int64_t id, args.Long("snapshot_id"));
    manage->RollbackTo(id);
  } else if (procedure == "rollback_to_timestamp") {
    FLOE_ASSIGN_OR_RETURN(int64_t ms, args.TimestampMs("timestamp"));
    manage->RollbackToTime(ms);
  } else if (args.has("snapshot_id") == args.has("ref")) {
    return InvalidArgument("set_current_snapshot: give exactly one of snapshot_id and ref");
  } else if (args.has("snapshot_id")) {
    FLOE_ASSIGN_OR_RETURN(int64_t id, args.Long("snapshot_id"));
    manage->SetCurrentSnapshot(id);
  } else {
    FLOE_ASSIGN_OR_RETURN(std::string ref, args.String("ref"));
    const SnapshotRef* found = table->metadata()->FindRef(ref);
    if (found == nullptr) {
      return NotFound("set_current_snapshot: table '{}' has no branch or tag '{}'", name, ref);
    }
    manage->SetCurrentSnapshot(found->snapshot_id);
  }
  FLOE_RETURN_IF_ERROR(manage->Commit());
  const std::optional<int64_t> current = table->metadata()->current_snapshot_id();
  return OneRow({Field{"previous_snapshot_id", floe::DataType::Int64(), true},
                 Field{"current_snapshot_id", floe::DataType::Int64(), true}},
                {previous ? Value(*previous) : Value(), current ? Value(*current) : Value()});
}

const std::vector<Procedure>& Procedures() {
  static const std::vector<Procedure> kProcedures{
      {"rewrite_data_files",
       {"table", "strategy", "sort_order", "options", "where"},
       {"table"},
       RewriteDataFiles},
      {"expire_snapshots",
       {"table", "older_than", "retain_last", "max_concurrent_deletes", "stream_results",
        "snapshot_ids"},
       {"table"},
       ExpireSnapshots},
      {"rewrite_manifests", {"table", "use_caching", "spec_id"}, {"table"}, RewriteManifests},
      {"remove_orphan_files",
       {"table", "older_than", "location", "dry_run"},
       {"table"},
       RemoveOrphanFiles},
      {"rollback_to_snapshot",
       {"table", "snapshot_id"},
       {"table", "snapshot_id"},
       [](Session& s, const std::string& c, const Arguments& a) {
         return MoveCurrent(s, c, a, "rollback_to_snapshot");
       }},
      {"rollback_to_timestamp",
       {"table", "timestamp"},
       {"table", "timestamp"},
       [](Session& s, const std::string& c, const Arguments& a) {
         return MoveCurrent(s, c, a, "rollback_to_timestamp");
       }},
      {"set_current_snapshot",
       {"table", "snapshot_id", "ref"},
       {"table"},
       [](Session& s, const std::string& c, const Arguments& a) {
         return MoveCurrent(s, c, a, "set_current_snapshot");
       }},
  };
  return kProcedures;
}

}  // namespace

Result<StatementResult> Execute(Session& session, const Call& statement) {
  const std::vector<std::string>& parts = statement.procedure.parts;
  std::string written;
  for (const std::string& part : parts) written += (written.empty() ? "" : ".") + part;
  if (parts.size() < 2 || parts.size() > 3 || Lower(parts[parts.size() - 2]) != "system") {
    return InvalidArgument("procedure '{}' must be named [catalog.]system.<procedure>", written);
  }
  const std::string catalog = parts.size() == 3 ? parts[0] : "";
  if (!catalog.empty()) FLOE_RETURN_IF_ERROR(session.FindCatalog(catalog));
  const std::string name = Lower(parts.back());
  const auto& procedures = Procedures();
  auto procedure = std::ranges::find(procedures, name, &Procedure::name);
  if (procedure == procedures.end()) {
    std::string known;
    for (const Procedure& p : procedures)
      known += (known.empty() ? "" : ", ") + std::string(p.name);
    return NotFound("unknown procedure '{}'; known: {}", written, known);
  }

  std::map<std::string, const Expr*> values;
  size_t position = 0;
  bool named_seen = false;
  for (const CallArgument& argument : statement.arguments) {
    std::string parameter;
    if (argument.name) {
      named_seen = true;
      parameter = Lower(*argument.name);
      if (std::ranges::find(procedure->parameters, parameter) == procedure->parameters.end()) {
        std::string known;
        for (std::string_view p : procedure->parameters) {
          known += (known.empty() ? "" : ", ") + std::string(p);
        }
        return InvalidArgument("{}: unknown argument '{}'; its arguments are {}", name,
                               *argument.name, known);
      }
    } else {
      if (named_seen) {
        return InvalidArgument("{}: positional arguments must come before named ones", name);
      }
      if (position >= procedure->parameters.size()) {
        return InvalidArgument("{}: too many arguments (it takes {})", name,
                               procedure->parameters.size());
      }
      parameter = std::string(procedure->parameters[position++]);
    }
    if (!values.emplace(parameter, argument.value.get()).second) {
      return InvalidArgument("{}: argument '{}' is given twice", name, parameter);
    }
  }
  for (std::string_view required : procedure->required) {
    if (!values.contains(std::string(required))) {
      return InvalidArgument("{}: missing required argument '{}'", name, required);
    }
  }
  return procedure->run(session, catalog, Arguments(name, std::move(values)));
}

}  // namespace floe::sql
