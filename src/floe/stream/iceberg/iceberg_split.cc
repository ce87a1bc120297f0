#include "floe/stream/iceberg/iceberg_split.h"

#include <utility>

#include "floe/util/json.h"

namespace floe::stream {
namespace {

std::string_view KindName(SplitKind kind) {
  switch (kind) {
    case SplitKind::kInsert:
      return "insert";
    case SplitKind::kDelete:
      return "delete";
    case SplitKind::kDiff:
      return "diff";
  }
  return "insert";
}

Json IntArray(const auto& values) {
  Json out = Json::MakeArray();
  for (auto v : values) out.Push(Json(static_cast<int64_t>(v)));
  return out;
}

Json FileToJson(const manifest::DataFile& f) {
  Json out = Json::MakeObject();
  out.Set("content", Json(static_cast<int64_t>(f.content)));
  out.Set("path", Json(f.file_path));
  out.Set("format", Json(f.file_format));
  out.Set("spec", Json(int64_t{f.spec_id}));
  Json partition = Json::MakeArray();
  for (const Literal& value : f.partition) {
    auto json = value.ToJson();
    partition.Push(json ? std::move(*json) : Json());
  }
  out.Set("partition", std::move(partition));
  out.Set("records", Json(f.record_count));
  out.Set("size", Json(f.file_size_in_bytes));
  if (!f.split_offsets.empty()) out.Set("offsets", IntArray(f.split_offsets));
  if (!f.equality_ids.empty()) out.Set("equality_ids", IntArray(f.equality_ids));
  if (f.referenced_data_file) out.Set("referenced", Json(*f.referenced_data_file));
  if (f.content_offset) out.Set("content_offset", Json(*f.content_offset));
  if (f.content_size_in_bytes) out.Set("content_size", Json(*f.content_size_in_bytes));
  if (f.first_row_id) out.Set("first_row_id", Json(*f.first_row_id));
  return out;
}

Result<std::vector<int64_t>> IntsFrom(const Json& json, std::string_view key) {
  std::vector<int64_t> out;
  const Json* array = json.Find(key);
  if (!array) return out;
  if (!array->is_array()) return InvalidArgument("'{}' is not an array", key);
  for (const Json& v : array->as_array()) {
    if (!v.is_int()) return InvalidArgument("'{}' holds a non-integer", key);
    out.push_back(v.as_int());
  }
  return out;
}

Result<table::DataFilePtr> FileFromJson(const Json& json, const TableMetadata& metadata) {
  auto file = std::make_shared<manifest::DataFile>();
  FLOE_ASSIGN_OR_RETURN(int64_t content, json.GetInt("content"));
  if (content < 0 || content > 2) return InvalidArgument("unknown file content {}", content);
  file->content = static_cast<manifest::FileContent>(content);
  FLOE_ASSIGN_OR_RETURN(file->file_path, json.GetString("path"));
  FLOE_ASSIGN_OR_RETURN(file->file_format, json.GetString("format"));
  FLOE_ASSIGN_OR_RETURN(int64_t spec_id, json.GetInt("spec"));
  file->spec_id = static_cast<int32_t>(spec_id);
  FLOE_ASSIGN_OR_RETURN(file->record_count, json.GetInt("records"));
  FLOE_ASSIGN_OR_RETURN(file->file_size_in_bytes, json.GetInt("size"));
  FLOE_ASSIGN_OR_RETURN(file->split_offsets, IntsFrom(json, "offsets"));
  FLOE_ASSIGN_OR_RETURN(auto equality, IntsFrom(json, "equality_ids"));
  for (int64_t id : equality) file->equality_ids.push_back(static_cast<int32_t>(id));
  FLOE_ASSIGN_OR_RETURN(file->referenced_data_file, json.GetOptionalString("referenced"));
  FLOE_ASSIGN_OR_RETURN(file->content_offset, json.GetOptionalInt("content_offset"));
  FLOE_ASSIGN_OR_RETURN(file->content_size_in_bytes, json.GetOptionalInt("content_size"));
  FLOE_ASSIGN_OR_RETURN(file->first_row_id, json.GetOptionalInt("first_row_id"));
  FLOE_ASSIGN_OR_RETURN(const Json::Array* partition, json.GetArray("partition"));
  if (!partition->empty()) {
    PartitionSpecPtr spec = metadata.SpecById(file->spec_id);
    if (!spec) return InvalidArgument("partition spec {} is not in the table", file->spec_id);
    FLOE_ASSIGN_OR_RETURN(auto type, spec->PartitionType(*metadata.current_schema()));
    if (type->fields().size() != partition->size()) {
      return InvalidArgument("{} partition values for spec {} of {} fields", partition->size(),
                             file->spec_id, type->fields().size());
    }
    for (size_t i = 0; i < partition->size(); ++i) {
      const TypePtr& field_type = type->fields()[i].type;
      if ((*partition)[i].is_null()) {
        file->partition.push_back(Literal::Null(field_type));
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(Literal value, Literal::FromJson(field_type, (*partition)[i]));
      file->partition.push_back(std::move(value));
    }
  }
  return file;
}

Json TasksToJson(const std::vector<table::FileScanTask>& tasks) {
  Json out = Json::MakeArray();
  for (const table::FileScanTask& task : tasks) {
    Json t = Json::MakeObject();
    t.Set("file", FileToJson(*task.data_file));
    t.Set("seq", Json(task.data_sequence_number));
    t.Set("start", Json(task.start));
    t.Set("length", Json(task.length));
    if (!task.recorded_path.empty()) t.Set("recorded_path", Json(task.recorded_path));
    Json deletes = Json::MakeArray();
    for (const table::DataFilePtr& d : task.deletes) deletes.Push(FileToJson(*d));
    t.Set("deletes", std::move(deletes));
    out.Push(std::move(t));
  }
  return out;
}

Result<std::vector<table::FileScanTask>> TasksFromJson(const Json& json, std::string_view key,
                                                       const TableMetadata& metadata) {
  std::vector<table::FileScanTask> out;
  const Json* array = json.Find(key);
  if (!array) return out;
  if (!array->is_array()) return InvalidArgument("'{}' is not an array", key);
  for (const Json& t : array->as_array()) {
    table::FileScanTask task;
    FLOE_ASSIGN_OR_RETURN(const Json* file, t.Get("file"));
    FLOE_ASSIGN_OR_RETURN(task.data_file, FileFromJson(*file, metadata));
    FLOE_ASSIGN_OR_RETURN(task.data_sequence_number, t.GetInt("seq"));
    FLOE_ASSIGN_OR_RETURN(task.start, t.GetInt("start"));
    FLOE_ASSIGN_OR_RETURN(task.length, t.GetInt("length"));
    FLOE_ASSIGN_OR_RETURN(auto recorded, t.GetOptionalString("recorded_path"));
    task.recorded_path = recorded.value_or("");
    FLOE_ASSIGN_OR_RETURN(const Json::Array* deletes, t.GetArray("deletes"));
    for (const Json& d : *deletes) {
      FLOE_ASSIGN_OR_RETURN(table::DataFilePtr file_ptr, FileFromJson(d, metadata));
      task.deletes.push_back(std::move(file_ptr));
    }
    task.spec = metadata.SpecById(task.data_file->spec_id);
    if (!task.spec) {
      return InvalidArgument("partition spec {} is not in the table", task.data_file->spec_id);
    }
    out.push_back(std::move(task));
  }
  return out;
}

}  // namespace

Json SplitToJson(const IcebergSplit& split) {
  Json out = Json::MakeObject();
  out.Set("id", Json(split.id));
  out.Set("kind", Json(KindName(split.kind)));
  out.Set("snapshot", Json(split.snapshot_id));
  out.Set("tasks", TasksToJson(split.tasks));
  if (split.kind == SplitKind::kDiff) out.Set("before", TasksToJson(split.before));
  return out;
}

Result<IcebergSplit> SplitFromJson(const Json& json, const TableMetadata& metadata) {
  IcebergSplit split;
  auto decode = [&]() -> Status {
    if (!json.is_object()) return InvalidArgument("a split is not a JSON object");
    FLOE_ASSIGN_OR_RETURN(split.id, json.GetString("id"));
    FLOE_ASSIGN_OR_RETURN(std::string kind, json.GetString("kind"));
    if (kind == "insert") {
      split.kind = SplitKind::kInsert;
    } else if (kind == "delete") {
      split.kind = SplitKind::kDelete;
    } else if (kind == "diff") {
      split.kind = SplitKind::kDiff;
    } else {
      return InvalidArgument("unknown split kind '{}'", kind);
    }
    FLOE_ASSIGN_OR_RETURN(split.snapshot_id, json.GetInt("snapshot"));
    FLOE_ASSIGN_OR_RETURN(split.tasks, TasksFromJson(json, "tasks", metadata));
    FLOE_ASSIGN_OR_RETURN(split.before, TasksFromJson(json, "before", metadata));
    return Ok();
  };
  Status status = decode();
  if (!status) {
    return InvalidArgument("decoding Iceberg source split '{}': {}", split.id,
                           status.error().message());
  }
  return split;
}

}  // namespace floe::stream
