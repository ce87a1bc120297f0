#include "floe/stream/iceberg/write_rows/dynamic_committer.h"

#include <fmt/format.h>

#include "floe/batch/value.h"
#include "floe/stream/metrics.h"
#include "floe/table/table.h"
#include "floe/util/clock.h"
#include "floe/util/json.h"

namespace floe::stream {

BatchSchemaPtr CommittedSnapshotSchema() {
  static const BatchSchemaPtr schema = std::make_shared<const BatchSchema>(std::vector<Field>{
      Field{"table", DataType::String(), false}, Field{"snapshot_id", DataType::Int64(), false},
      Field{"operation", DataType::String(), false}, Field{"summary", DataType::String(), false},
      Field{"manifest_list", DataType::String(), false},
      Field{"timestamp_ms", DataType::Int64(), false}});
  return schema;
}

DynamicCommitter::DynamicCommitter(WriteRowsSpec spec) : spec_(std::move(spec)) {}
DynamicCommitter::~DynamicCommitter() = default;

int64_t DynamicCommitter::Now() const { return spec_.clock ? spec_.clock() : NowMs(); }

Result<DynamicCommitter::TableCommitter*> DynamicCommitter::CommitterFor(
    const std::string& table, const std::string& branch,
    const std::vector<std::string>& equality_fields, bool upsert,
    std::vector<std::string> restored) {
  auto it = committers_.find(table);
  if (it != committers_.end()) return it->second.get();
  FLOE_ASSIGN_OR_RETURN(catalog::TableIdentifier ident, catalog::TableIdentifier::Parse(table));
  SinkSpec sink = TableSinkSpec(spec_, ident, branch, equality_fields, upsert);
  sink.sink_id = sink_id_;
  ++catalog_requests_;
  FLOE_ASSIGN_OR_RETURN(sink.table, table::Table::Load(catalog_, ident));
  auto state = std::make_unique<TableCommitter>();
  state->committer = std::make_unique<IcebergSinkCommitter>(std::move(sink));
  OperatorContext context = context_;
  context.operator_name = fmt::format("{} {}", context_.operator_name, table);
  context.restored_state = std::move(restored);
  FLOE_RETURN_IF_ERROR(state->committer->Open(context));
  CollectCommitted(table, *state->committer);
  return committers_.emplace(table, std::move(state)).first->second.get();
}

Status DynamicCommitter::Open(const OperatorContext& context) {
  if (context.parallelism != 1) {
    return InvalidArgument("write rows committer {}: parallelism must be 1, not {}",
                           context.operator_name, context.parallelism);
  }
  context_ = context;
  context_.restored_state.clear();
  sink_id_ = spec_.sink_id.empty() ? DefaultSinkId(context.job_name, context.operator_name)
                                   : spec_.sink_id;
  FLOE_ASSIGN_OR_RETURN(catalog_,
                        catalog::CreateCatalog(spec_.catalog_name, spec_.catalog_properties));
  last_commit_ms_ = Now();
  struct Restored {
    std::string branch;
    std::vector<std::string> equality_fields;
    bool upsert = false;
    std::vector<std::string> entries;
  };
  std::map<std::string, Restored> by_table;
  for (const std::string& text : context.restored_state) {
    auto bad = [&](const Error& error) {
      return CorruptData("write rows committer {}: state entry '{}': {}", context.operator_name,
                         text.substr(0, 200), error.message());
    };
    auto json = Json::Parse(text);
    if (!json) return bad(json.error());
    auto table = json->GetString("table");
    auto branch = json->GetString("branch");
    auto upsert = json->GetBool("upsert");
    auto equality = json->GetArray("equality-fields");
    auto entry = json->GetString("entry");
    if (!table) return bad(table.error());
    if (!branch) return bad(branch.error());
    if (!upsert) return bad(upsert.error());
    if (!equality) return bad(equality.error());
    if (!entry) return bad(entry.error());
    Restored& restored = by_table[*table];
    restored.branch = *branch;
    restored.upsert = *upsert;
    restored.equality_fields.clear();
    for (const Json& field : **equality) {
      if (!field.is_string()) return bad(Error(ErrorKind::kCorruptData, "a field is not a string"));
      restored.equality_fields.push_back(field.as_string());
    }
    restored.entries.push_back(*entry);
  }
  for (auto& [table, restored] : by_table) {
    FLOE_RETURN_IF_ERROR(CommitterFor(table, restored.branch, restored.equality_fields,
                                      restored.upsert, std::move(restored.entries)));
  }
  return Ok();
}

Status DynamicCommitter::ProcessBatch(int /*input*/, RecordBatch /*batch*/, Output& /*output*/) {
  return InvalidArgument("write rows committer {}: takes the writers' files, not rows",
                         context_.operator_name);
}

Status DynamicCommitter::ProcessMessage(int /*input*/, Message message, Output& output) {
  const auto* result = std::any_cast<DynamicWriteResult>(&message.value);
  if (result == nullptr) {
    return InvalidArgument("write rows committer {}: a message that is not a writer's files",
                           context_.operator_name);
  }
  for (const DynamicWriteResult::TableFiles& files : result->tables) {
    const bool loaded_now = !committers_.contains(files.table);
    FLOE_ASSIGN_OR_RETURN(
        TableCommitter * state,
        CommitterFor(files.table, files.branch, files.equality_fields, files.upsert, {}));
    // A writer may have added a partition spec since this committer loaded the table: its
    // manifests need the spec.
    if (files.files) {
      const TableMetadataPtr metadata = state->committer->table()->metadata();
      bool known = true;
      for (const auto& file : files.files->data_files) {
        known &= metadata->SpecById(file.spec_id) != nullptr;
      }
      for (const auto& file : files.files->delete_files) {
        known &= metadata->SpecById(file.spec_id) != nullptr;
      }
      if (!known) {
        ++catalog_requests_;
        FLOE_RETURN_IF_ERROR(state->committer->table()->Refresh());
      }
    }
    // A table loaded just now, after the writer evolved it for these files, already has their
    // schema; files that come after the load may need a refresh before the commit.
    if (!loaded_now) state->refresh = true;
    FLOE_RETURN_IF_ERROR(state->committer->ProcessMessage(
        0,
        Message{SinkWriteResult{.checkpoint_id = result->checkpoint_id,
                                .subtask = result->subtask,
                                .files = files.files}},
        state->output));
  }
  return EmitCommitted(output);
}

Result<std::vector<std::string>> DynamicCommitter::SnapshotState(int64_t checkpoint_id,
                                                                 Output& output) {
  return SnapshotCheckpoint(CheckpointBarrier{.checkpoint_id = checkpoint_id}, output);
}

Result<std::vector<std::string>> DynamicCommitter::SnapshotCheckpoint(
    const CheckpointBarrier& barrier, Output& output) {
  FLOE_RETURN_IF_ERROR(EmitCommitted(output));
  std::vector<std::string> entries;
  for (auto& [table, state] : committers_) {
    FLOE_ASSIGN_OR_RETURN(std::vector<std::string> inner,
                          state->committer->SnapshotCheckpoint(barrier, state->output));
    const SinkOptions& options = state->committer->options();
    for (std::string& text : inner) {
      Json entry = Json::MakeObject();
      entry.Set("table", table);
      entry.Set("branch", options.branch);
      entry.Set("upsert", options.upsert);
      Json equality = Json::MakeArray();
      for (const std::string& field : state->committer->equality_columns()) {
        equality.as_array().push_back(field);
      }
      entry.Set("equality-fields", std::move(equality));
      entry.Set("entry", std::move(text));
      entries.push_back(entry.Dump());
    }
  }
  return entries;
}

Status DynamicCommitter::NotifyCheckpointComplete(int64_t checkpoint_id) {
  const int64_t now = Now();
  if (spec_.triggering_frequency_ms > 0 && now - last_commit_ms_ < spec_.triggering_frequency_ms) {
    return Ok();
  }
  last_commit_ms_ = now;
  for (auto& [table, state] : committers_) {
    FLOE_RETURN_IF_ERROR(RefreshIfWritten(*state));
    FLOE_RETURN_IF_ERROR(state->committer->NotifyCheckpointComplete(checkpoint_id));
    CollectCommitted(table, *state->committer);
  }
  return Ok();
}

Status DynamicCommitter::Finish(Output& output) { return FinishInput(EndOfInput{}, output); }

Status DynamicCommitter::FinishInput(const EndOfInput& end, Output& output) {
  for (auto& [table, state] : committers_) {
    FLOE_RETURN_IF_ERROR(RefreshIfWritten(*state));
    FLOE_RETURN_IF_ERROR(state->committer->FinishInput(end, state->output));
    CollectCommitted(table, *state->committer);
  }
  return EmitCommitted(output);
}

Status DynamicCommitter::RefreshIfWritten(TableCommitter& state) {
  // Writers may have evolved the table since it was loaded here: the snapshot must carry the
  // schema its files were written with (readers such as ClickHouse read a snapshot by its schema
  // id). Every file of this round was written before its barrier, so a refresh now sees its schema.
  if (!state.refresh) return Ok();
  state.refresh = false;
  ++catalog_requests_;
  return state.committer->table()->Refresh();
}

void DynamicCommitter::CollectCommitted(const std::string& table, IcebergSinkCommitter& committer) {
  for (SnapshotPtr& snapshot : committer.TakeCommitted()) {
    committed_.emplace_back(table, std::move(snapshot));
    ++catalog_requests_;
  }
  if (context_.metrics != nullptr) {
    context_.metrics->Set(fmt::format("{}.catalogRequests", context_.operator_name),
                          catalog_requests_);
  }
}

Status DynamicCommitter::EmitCommitted(Output& output) {
  if (committed_.empty()) return Ok();
  std::vector<Value> tables, ids, operations, summaries, manifest_lists, timestamps;
  for (const auto& [table, snapshot] : committed_) {
    tables.emplace_back(table);
    ids.emplace_back(snapshot->snapshot_id);
    operations.emplace_back(std::string(snapshot->operation()));
    Json summary = Json::MakeObject();
    for (const auto& [key, value] : snapshot->summary) summary.Set(key, value);
    summaries.emplace_back(summary.Dump());
    manifest_lists.emplace_back(snapshot->manifest_list);
    timestamps.emplace_back(snapshot->timestamp_ms);
  }
  committed_.clear();
  const BatchSchemaPtr schema = CommittedSnapshotSchema();
  std::vector<Array> columns;
  for (auto* values : {&tables, &ids, &operations, &summaries, &manifest_lists, &timestamps}) {
    FLOE_ASSIGN_OR_RETURN(Array column,
                          MakeArray(schema->field(static_cast<int>(columns.size())).type, *values));
    columns.push_back(std::move(column));
  }
  FLOE_ASSIGN_OR_RETURN(RecordBatch batch, RecordBatch::Make(schema, std::move(columns)));
  return output.Emit(std::move(batch));
}

}  // namespace floe::stream
