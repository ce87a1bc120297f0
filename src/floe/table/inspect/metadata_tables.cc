#include "floe/table/inspect/metadata_tables.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "floe/batch/value.h"
#include "floe/io/file_io.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/transform.h"
#include "floe/table/scan/batch_types.h"
#include "floe/table/table.h"
#include "floe/util/thread_pool.h"

namespace floe::table {
namespace {

using manifest::DataFile;
using manifest::ManifestEntry;
using manifest::ManifestFile;

constexpr std::array<std::pair<std::string_view, MetadataTable>, 11> kNames{{
    {"snapshots", MetadataTable::kSnapshots},
    {"history", MetadataTable::kHistory},
    {"files", MetadataTable::kFiles},
    {"data_files", MetadataTable::kDataFiles},
    {"delete_files", MetadataTable::kDeleteFiles},
    {"manifests", MetadataTable::kManifests},
    {"partitions", MetadataTable::kPartitions},
    {"refs", MetadataTable::kRefs},
    {"metadata_log_entries", MetadataTable::kMetadataLogEntries},
    {"all_data_files", MetadataTable::kAllDataFiles},
    {"all_manifests", MetadataTable::kAllManifests},
}};

Field Required(std::string name, DataTypePtr type) { return Field{std::move(name), type, false}; }
Field Optional(std::string name, DataTypePtr type) { return Field{std::move(name), type, true}; }

DataTypePtr TimestampLtz() { return DataType::Timestamp(TimeUnit::kMicro, /*utc=*/true); }
Value TimestampMs(int64_t ms) { return TimestampValue{ms * 1000, TimeUnit::kMicro, true}; }
Value OptionalLong(const std::optional<int64_t>& v) { return v ? Value(*v) : Value(); }
Value OptionalInt(const std::optional<int32_t>& v) { return v ? Value(int64_t{*v}) : Value(); }

// The columns of a metadata table, filled row by row and turned into one batch at the end.
class Rows {
 public:
  explicit Rows(BatchSchemaPtr schema)
      : schema_(std::move(schema)), columns_(schema_->num_fields()) {}
  void Add(std::vector<Value> row) {
    for (size_t i = 0; i < columns_.size(); ++i) columns_[i].push_back(std::move(row[i]));
  }
  Result<std::vector<RecordBatch>> Finish() const {
    std::vector<Array> arrays;
    for (int i = 0; i < schema_->num_fields(); ++i) {
      Result<Array> array = MakeArray(schema_->field(i).type, columns_[i]);
      if (!array) {
        return InternalError("metadata column '{}': {}", schema_->field(i).name,
                             array.error().message());
      }
      arrays.push_back(std::move(*array));
    }
    const auto rows = static_cast<int64_t>(columns_.empty() ? 0 : columns_[0].size());
    FLOE_ASSIGN_OR_RETURN(RecordBatch batch, RecordBatch::Make(schema_, std::move(arrays), rows));
    return std::vector<RecordBatch>{std::move(batch)};
  }

 private:
  BatchSchemaPtr schema_;
  std::vector<std::vector<Value>> columns_;
};

// The partition tuple type the files and partitions tables show: every non-void field of every
// spec of the table, by field id (a field keeps its id across specs), so that files of all specs
// fit one column. Names and result types come from the spec that first has the field.
struct UnifiedPartition {
  std::vector<int32_t> field_ids;
  std::shared_ptr<const StructType> type;  // nullptr when the table was never partitioned
  DataTypePtr batch_type;
};

Result<UnifiedPartition> UnifiedPartitionOf(const TableMetadata& metadata) {
  std::map<int32_t, NestedField> fields;
  for (const PartitionSpecPtr& spec : metadata.partition_specs()) {
    FLOE_ASSIGN_OR_RETURN(std::shared_ptr<const StructType> type,
                          spec->PartitionType(*metadata.current_schema()));
    for (size_t i = 0; i < spec->fields().size(); ++i) {
      if (spec->fields()[i].transform.is_void()) continue;
      fields.try_emplace(spec->fields()[i].field_id, type->fields()[i]);
    }
  }
  UnifiedPartition out;
  if (fields.empty()) return out;
  std::vector<NestedField> nested;
  for (auto& [id, field] : fields) {
    out.field_ids.push_back(id);
    field.required = false;
    nested.push_back(field);
  }
  out.type = StructType::Make(std::move(nested));
  FLOE_ASSIGN_OR_RETURN(out.batch_type, table::ToBatchType(*out.type));
  return out;
}

// A file's partition tuple in the unified type: its values by field id, null for fields its
// spec does not have.
Value UnifiedPartitionValue(const TableMetadata& metadata, const UnifiedPartition& unified,
                            const DataFile& file) {
  PartitionSpecPtr spec = metadata.SpecById(file.spec_id);
  StructValue out;
  for (size_t i = 0; i < unified.field_ids.size(); ++i) {
    Value value;
    if (spec) {
      const auto fields = spec->fields();
      for (size_t j = 0; j < fields.size() && j < file.partition.size(); ++j) {
        if (fields[j].field_id == unified.field_ids[i] && !file.partition[j].is_null()) {
          value = table::LiteralToValue(file.partition[j]);
        }
      }
    }
    out.fields.emplace_back(std::string(unified.type->fields()[i].name), std::move(value));
  }
  return out;
}

// ---- reading manifests ----

Result<std::vector<ManifestFile>> ManifestsOf(io::FileIO& io, const Snapshot& snapshot) {
  if (snapshot.manifest_list.empty()) {
    std::vector<ManifestFile> out;
    for (const std::string& path : snapshot.manifests) {
      out.push_back(ManifestFile{.manifest_path = path});
    }
    return out;
  }
  FLOE_ASSIGN_OR_RETURN(auto input, io.NewInputFile(snapshot.manifest_list));
  return manifest::ReadManifestList(*input);
}

// The entries of each manifest, read in parallel, in the manifests' order; spec ids filled in.
Result<std::vector<std::vector<ManifestEntry>>> ReadEntries(
    io::FileIO& io, const std::vector<ManifestFile>& manifests) {
  std::vector<Result<std::vector<ManifestEntry>>> read(manifests.size(),
                                                       std::vector<ManifestEntry>{});
  ThreadPool pool(std::min<size_t>(ThreadPool::DefaultWorkers(), manifests.size()) > 1
                      ? std::min<size_t>(ThreadPool::DefaultWorkers(), manifests.size()) - 1
                      : 0);
  pool.ParallelFor(manifests.size(), [&](size_t i) {
    read[i] = [&]() -> Result<std::vector<ManifestEntry>> {
      FLOE_ASSIGN_OR_RETURN(auto input, io.NewInputFile(manifests[i].manifest_path));
      FLOE_ASSIGN_OR_RETURN(auto reader, manifest::ManifestReader::Open(*input, &manifests[i]));
      FLOE_ASSIGN_OR_RETURN(auto entries, reader->ReadAll());
      for (ManifestEntry& entry : entries) {
        entry.data_file.spec_id = manifests[i].partition_spec_id;
      }
      return entries;
    }();
  });
  std::vector<std::vector<ManifestEntry>> out;
  for (auto& entries : read) {
    FLOE_RETURN_IF_ERROR(entries);
    out.push_back(std::move(*entries));
  }
  return out;
}

// Every distinct manifest of every snapshot, in snapshot order, with the first snapshot whose
// list has it.
Result<std::vector<std::pair<ManifestFile, int64_t>>> AllManifests(const TableMetadata& metadata,
                                                                   io::FileIO& io) {
  std::vector<std::pair<ManifestFile, int64_t>> out;
  for (const SnapshotPtr& snapshot : metadata.snapshots()) {
    FLOE_ASSIGN_OR_RETURN(std::vector<ManifestFile> manifests, ManifestsOf(io, *snapshot));
    for (ManifestFile& manifest : manifests) {
      out.emplace_back(std::move(manifest), snapshot->snapshot_id);
    }
  }
  return out;
}

// ---- schemas ----

BatchSchemaPtr SnapshotsSchema() {
  return std::make_shared<const BatchSchema>(std::vector<Field>{
      Required("committed_at", TimestampLtz()),
      Required("snapshot_id", DataType::Int64()),
      Optional("parent_id", DataType::Int64()),
      Optional("operation", DataType::String()),
      Optional("manifest_list", DataType::String()),
      Optional("summary", DataType::Map(DataType::String(), DataType::String())),
  });
}

BatchSchemaPtr HistorySchema() {
  return std::make_shared<const BatchSchema>(std::vector<Field>{
      Required("made_current_at", TimestampLtz()),
      Required("snapshot_id", DataType::Int64()),
      Optional("parent_id", DataType::Int64()),
      Required("is_current_ancestor", DataType::Bool()),
  });
}

BatchSchemaPtr FilesSchema(const UnifiedPartition& partition) {
  auto counts = DataType::Map(DataType::Int32(), DataType::Int64());
  auto bounds = DataType::Map(DataType::Int32(), DataType::Binary());
  std::vector<Field> fields{
      Optional("content", DataType::Int32()),
      Required("file_path", DataType::String()),
      Required("file_format", DataType::String()),
      Required("spec_id", DataType::Int32()),
  };
  // As in the reference implementation, a table that was never partitioned has no partition
  // column.
  if (partition.type) fields.push_back(Required("partition", partition.batch_type));
  for (Field field : {
           Required("record_count", DataType::Int64()),
           Required("file_size_in_bytes", DataType::Int64()),
           Optional("column_sizes", counts),
           Optional("value_counts", counts),
           Optional("null_value_counts", counts),
           Optional("nan_value_counts", counts),
           Optional("lower_bounds", bounds),
           Optional("upper_bounds", bounds),
           Optional("key_metadata", DataType::Binary()),
           Optional("split_offsets", DataType::List(DataType::Int64())),
           Optional("equality_ids", DataType::List(DataType::Int32())),
           Optional("sort_order_id", DataType::Int32()),
       }) {
    fields.push_back(std::move(field));
  }
  return std::make_shared<const BatchSchema>(std::move(fields));
}

DataTypePtr PartitionSummaryType() {
  return DataType::Struct(
      {Required("contains_null", DataType::Bool()), Optional("contains_nan", DataType::Bool()),
       Optional("lower_bound", DataType::String()), Optional("upper_bound", DataType::String())});
}

BatchSchemaPtr ManifestsSchema(bool all) {
  std::vector<Field> fields{
      Required("content", DataType::Int32()),
      Required("path", DataType::String()),
      Required("length", DataType::Int64()),
      Required("partition_spec_id", DataType::Int32()),
      Required("added_snapshot_id", DataType::Int64()),
      Required("added_data_files_count", DataType::Int32()),
      Required("existing_data_files_count", DataType::Int32()),
      Required("deleted_data_files_count", DataType::Int32()),
      Required("added_delete_files_count", DataType::Int32()),
      Required("existing_delete_files_count", DataType::Int32()),
      Required("deleted_delete_files_count", DataType::Int32()),
      Required("partition_summaries",
               DataType::List(Field{"element", PartitionSummaryType(), false})),
  };
  if (all) fields.push_back(Required("reference_snapshot_id", DataType::Int64()));
  return std::make_shared<const BatchSchema>(std::move(fields));
}

BatchSchemaPtr PartitionsSchema(const UnifiedPartition& partition) {
  std::vector<Field> fields;
  if (partition.type) {
    fields.push_back(Required("partition", partition.batch_type));
    fields.push_back(Required("spec_id", DataType::Int32()));
  }
  for (Field field : {
           Required("record_count", DataType::Int64()),
           Required("file_count", DataType::Int32()),
           Required("total_data_file_size_in_bytes", DataType::Int64()),
           Required("position_delete_record_count", DataType::Int64()),
           Required("position_delete_file_count", DataType::Int32()),
           Required("equality_delete_record_count", DataType::Int64()),
           Required("equality_delete_file_count", DataType::Int32()),
           Optional("last_updated_at", TimestampLtz()),
           Optional("last_updated_snapshot_id", DataType::Int64()),
       }) {
    fields.push_back(std::move(field));
  }
  return std::make_shared<const BatchSchema>(std::move(fields));
}

BatchSchemaPtr RefsSchema() {
  return std::make_shared<const BatchSchema>(std::vector<Field>{
      Required("name", DataType::String()),
      Required("type", DataType::String()),
      Required("snapshot_id", DataType::Int64()),
      Optional("max_reference_age_in_ms", DataType::Int64()),
      Optional("min_snapshots_to_keep", DataType::Int32()),
      Optional("max_snapshot_age_in_ms", DataType::Int64()),
  });
}

BatchSchemaPtr MetadataLogSchema() {
  return std::make_shared<const BatchSchema>(std::vector<Field>{
      Required("timestamp", TimestampLtz()),
      Required("file", DataType::String()),
      Optional("latest_snapshot_id", DataType::Int64()),
      Optional("latest_schema_id", DataType::Int32()),
      Optional("latest_sequence_number", DataType::Int64()),
  });
}

// ---- rows ----

Result<std::vector<RecordBatch>> SnapshotRows(const TableMetadata& metadata) {
  Rows rows(SnapshotsSchema());
  for (const SnapshotPtr& snapshot : metadata.snapshots()) {
    MapValue summary;
    for (const auto& [key, value] : snapshot->summary) summary.entries.emplace_back(key, value);
    rows.Add({TimestampMs(snapshot->timestamp_ms), snapshot->snapshot_id,
              OptionalLong(snapshot->parent_snapshot_id),
              snapshot->operation().empty() ? Value() : Value(std::string(snapshot->operation())),
              snapshot->manifest_list.empty() ? Value() : Value(snapshot->manifest_list),
              std::move(summary)});
  }
  return rows.Finish();
}

std::set<int64_t> CurrentAncestors(const TableMetadata& metadata) {
  std::set<int64_t> out;
  for (SnapshotPtr s = metadata.current_snapshot(); s && out.insert(s->snapshot_id).second;
       s = s->parent_snapshot_id ? metadata.SnapshotById(*s->parent_snapshot_id) : nullptr) {
  }
  return out;
}

Result<std::vector<RecordBatch>> HistoryRows(const TableMetadata& metadata) {
  Rows rows(HistorySchema());
  const std::set<int64_t> ancestors = CurrentAncestors(metadata);
  for (const SnapshotLogEntry& entry : metadata.snapshot_log()) {
    SnapshotPtr snapshot = metadata.SnapshotById(entry.snapshot_id);
    rows.Add({TimestampMs(entry.timestamp_ms), entry.snapshot_id,
              snapshot ? OptionalLong(snapshot->parent_snapshot_id) : Value(),
              ancestors.contains(entry.snapshot_id)});
  }
  return rows.Finish();
}

Value CountMapValue(const manifest::CountMap& map) {
  MapValue out;
  for (const auto& [id, count] : map) out.entries.emplace_back(int64_t{id}, count);
  return out;
}

Value BoundMapValue(const manifest::BoundMap& map) {
  MapValue out;
  for (const auto& [id, bytes] : map) out.entries.emplace_back(int64_t{id}, BinaryValue{bytes});
  return out;
}

void AddFileRow(Rows& rows, const TableMetadata& metadata, const UnifiedPartition& partition,
                const DataFile& file) {
  std::vector<Value> row{int64_t{static_cast<int>(file.content)}, file.file_path, file.file_format,
                         int64_t{file.spec_id}};
  if (partition.type) row.push_back(UnifiedPartitionValue(metadata, partition, file));
  ListValue splits;
  for (int64_t offset : file.split_offsets) splits.elements.emplace_back(offset);
  ListValue equality;
  for (int32_t id : file.equality_ids) equality.elements.emplace_back(int64_t{id});
  for (Value value : {Value(file.record_count), Value(file.file_size_in_bytes),
                      CountMapValue(file.column_sizes), CountMapValue(file.value_counts),
                      CountMapValue(file.null_value_counts), CountMapValue(file.nan_value_counts),
                      BoundMapValue(file.lower_bounds), BoundMapValue(file.upper_bounds),
                      file.key_metadata ? Value(BinaryValue{*file.key_metadata}) : Value(),
                      file.split_offsets.empty() ? Value() : Value(std::move(splits)),
                      file.equality_ids.empty() ? Value() : Value(std::move(equality)),
                      OptionalInt(file.sort_order_id)}) {
    row.push_back(std::move(value));
  }
  rows.Add(std::move(row));
}

bool WantsContent(MetadataTable which, manifest::ManifestContent content) {
  switch (which) {
    case MetadataTable::kDataFiles:
    case MetadataTable::kAllDataFiles:
      return content == manifest::ManifestContent::kData;
    case MetadataTable::kDeleteFiles:
      return content == manifest::ManifestContent::kDeletes;
    default:
      return true;
  }
}

Result<std::vector<RecordBatch>> FileRows(const table::Table& table, const TableMetadata& metadata,
                                          MetadataTable which) {
  FLOE_ASSIGN_OR_RETURN(UnifiedPartition partition, UnifiedPartitionOf(metadata));
  Rows rows(FilesSchema(partition));
  std::vector<ManifestFile> manifests;
  if (which == MetadataTable::kAllDataFiles) {
    FLOE_ASSIGN_OR_RETURN(auto all, AllManifests(metadata, *table.io()));
    std::set<std::string> seen;
    for (auto& [manifest, snapshot_id] : all) {
      if (seen.insert(manifest.manifest_path).second) manifests.push_back(std::move(manifest));
    }
  } else if (SnapshotPtr current = metadata.current_snapshot()) {
    FLOE_ASSIGN_OR_RETURN(manifests, ManifestsOf(*table.io(), *current));
  }
  std::erase_if(manifests, [&](const ManifestFile& m) { return !WantsContent(which, m.content); });
  FLOE_ASSIGN_OR_RETURN(auto entries, ReadEntries(*table.io(), manifests));
  for (const auto& manifest_entries : entries) {
    for (const ManifestEntry& entry : manifest_entries) {
      if (entry.status == manifest::EntryStatus::kDeleted) continue;
      AddFileRow(rows, metadata, partition, entry.data_file);
    }
  }
  return rows.Finish();
}

// A manifest's partition summaries with bounds as human strings of the partition values.
Value PartitionSummaries(const TableMetadata& metadata, const ManifestFile& manifest) {
  ListValue out;
  if (!manifest.partitions) return out;
  PartitionSpecPtr spec = metadata.SpecById(manifest.partition_spec_id);
  std::shared_ptr<const StructType> type;
  if (spec) {
    Result<std::shared_ptr<const StructType>> made =
        spec->PartitionType(*metadata.current_schema());
    if (made) type = *made;
  }
  for (size_t i = 0; i < manifest.partitions->size(); ++i) {
    const manifest::FieldSummary& summary = (*manifest.partitions)[i];
    auto bound = [&](const std::optional<std::string>& bytes) -> Value {
      if (!bytes || !type || i >= type->fields().size()) return Value();
      Result<Literal> literal = Literal::FromBinary(type->fields()[i].type, *bytes);
      if (!literal) return Value();
      return spec->fields()[i].transform.ToHumanString(*literal);
    };
    StructValue field;
    field.fields.emplace_back("contains_null", summary.contains_null);
    field.fields.emplace_back("contains_nan",
                              summary.contains_nan ? Value(*summary.contains_nan) : Value());
    field.fields.emplace_back("lower_bound", bound(summary.lower_bound));
    field.fields.emplace_back("upper_bound", bound(summary.upper_bound));
    out.elements.emplace_back(std::move(field));
  }
  return out;
}

void AddManifestRow(Rows& rows, const TableMetadata& metadata, const ManifestFile& manifest,
                    std::optional<int64_t> reference_snapshot_id) {
  const bool data = manifest.content == manifest::ManifestContent::kData;
  auto count = [](const std::optional<int32_t>& n) { return int64_t{n.value_or(0)}; };
  const int64_t added = count(manifest.added_files_count);
  const int64_t existing = count(manifest.existing_files_count);
  const int64_t deleted = count(manifest.deleted_files_count);
  std::vector<Value> row{int64_t{static_cast<int>(manifest.content)},
                         manifest.manifest_path,
                         manifest.manifest_length,
                         int64_t{manifest.partition_spec_id},
                         manifest.added_snapshot_id,
                         data ? added : 0,
                         data ? existing : 0,
                         data ? deleted : 0,
                         data ? 0 : added,
                         data ? 0 : existing,
                         data ? 0 : deleted,
                         PartitionSummaries(metadata, manifest)};
  if (reference_snapshot_id) row.emplace_back(*reference_snapshot_id);
  rows.Add(std::move(row));
}

Result<std::vector<RecordBatch>> ManifestRows(const table::Table& table,
                                              const TableMetadata& metadata) {
  Rows rows(ManifestsSchema(false));
  if (SnapshotPtr current = metadata.current_snapshot()) {
    FLOE_ASSIGN_OR_RETURN(auto manifests, ManifestsOf(*table.io(), *current));
    for (const ManifestFile& manifest : manifests) {
      AddManifestRow(rows, metadata, manifest, std::nullopt);
    }
  }
  return rows.Finish();
}

Result<std::vector<RecordBatch>> AllManifestRows(const table::Table& table,
                                                 const TableMetadata& metadata) {
  Rows rows(ManifestsSchema(true));
  FLOE_ASSIGN_OR_RETURN(auto all, AllManifests(metadata, *table.io()));
  for (const auto& [manifest, snapshot_id] : all) {
    AddManifestRow(rows, metadata, manifest, snapshot_id);
  }
  return rows.Finish();
}

Result<std::vector<RecordBatch>> PartitionRows(const table::Table& table,
                                               const TableMetadata& metadata) {
  FLOE_ASSIGN_OR_RETURN(UnifiedPartition partition, UnifiedPartitionOf(metadata));
  struct Stats {
    Value partition;
    int32_t spec_id = 0;
    int64_t records = 0;
    int64_t files = 0;
    int64_t data_bytes = 0;
    int64_t position_records = 0;
    int64_t position_files = 0;
    int64_t equality_records = 0;
    int64_t equality_files = 0;
    std::optional<int64_t> last_updated_ms;
    std::optional<int64_t> last_updated_snapshot_id;
  };
  std::vector<Stats> stats;
  std::map<std::string, size_t> index;  // partition value as JSON -> stats
  if (SnapshotPtr current = metadata.current_snapshot()) {
    FLOE_ASSIGN_OR_RETURN(auto manifests, ManifestsOf(*table.io(), *current));
    FLOE_ASSIGN_OR_RETURN(auto entries, ReadEntries(*table.io(), manifests));
    for (const auto& manifest_entries : entries) {
      for (const ManifestEntry& entry : manifest_entries) {
        if (entry.status == manifest::EntryStatus::kDeleted) continue;
        const DataFile& file = entry.data_file;
        Value value = partition.type ? UnifiedPartitionValue(metadata, partition, file) : Value();
        auto [it, added] = index.try_emplace(value.ToJson(), stats.size());
        if (added) stats.push_back(Stats{.partition = std::move(value), .spec_id = file.spec_id});
        Stats& s = stats[it->second];
        switch (file.content) {
          case manifest::FileContent::kData:
            s.records += file.record_count;
            s.files += 1;
            s.data_bytes += file.file_size_in_bytes;
            break;
          case manifest::FileContent::kPositionDeletes:
            s.position_records += file.record_count;
            s.position_files += 1;
            break;
          case manifest::FileContent::kEqualityDeletes:
            s.equality_records += file.record_count;
            s.equality_files += 1;
            break;
        }
        SnapshotPtr snapshot =
            entry.snapshot_id ? metadata.SnapshotById(*entry.snapshot_id) : nullptr;
        if (snapshot && (!s.last_updated_ms || snapshot->timestamp_ms > *s.last_updated_ms)) {
          s.last_updated_ms = snapshot->timestamp_ms;
          s.last_updated_snapshot_id = snapshot->snapshot_id;
        }
      }
    }
  }
  Rows rows(PartitionsSchema(partition));
  for (Stats& s : stats) {
    std::vector<Value> row;
    if (partition.type) {
      row.push_back(std::move(s.partition));
      row.emplace_back(int64_t{s.spec_id});
    }
    for (Value value :
         {Value(s.records), Value(s.files), Value(s.data_bytes), Value(s.position_records),
          Value(s.position_files), Value(s.equality_records), Value(s.equality_files),
          s.last_updated_ms ? TimestampMs(*s.last_updated_ms) : Value(),
          OptionalLong(s.last_updated_snapshot_id)}) {
      row.push_back(std::move(value));
    }
    rows.Add(std::move(row));
  }
  return rows.Finish();
}

Result<std::vector<RecordBatch>> RefRows(const TableMetadata& metadata) {
  Rows rows(RefsSchema());
  for (const auto& [name, ref] : metadata.refs()) {
    rows.Add({name, ref.is_branch() ? "BRANCH" : "TAG", ref.snapshot_id,
              OptionalLong(ref.max_ref_age_ms), OptionalInt(ref.min_snapshots_to_keep),
              OptionalLong(ref.max_snapshot_age_ms)});
  }
  return rows.Finish();
}

Result<std::vector<RecordBatch>> MetadataLogRows(const table::Table& table,
                                                 const TableMetadata& metadata) {
  Rows rows(MetadataLogSchema());
  // The snapshot that was current at a time, per the snapshot log.
  auto latest = [&](int64_t timestamp_ms) -> SnapshotPtr {
    std::optional<int64_t> id;
    for (const SnapshotLogEntry& entry : metadata.snapshot_log()) {
      if (entry.timestamp_ms <= timestamp_ms) id = entry.snapshot_id;
    }
    return id ? metadata.SnapshotById(*id) : nullptr;
  };
  auto add = [&](int64_t timestamp_ms, const std::string& file) {
    SnapshotPtr snapshot = latest(timestamp_ms);
    rows.Add({TimestampMs(timestamp_ms), file, snapshot ? Value(snapshot->snapshot_id) : Value(),
              snapshot ? OptionalInt(snapshot->schema_id) : Value(),
              snapshot ? Value(snapshot->sequence_number) : Value()});
  };
  for (const MetadataLogEntry& entry : metadata.metadata_log()) {
    add(entry.timestamp_ms, entry.metadata_file);
  }
  add(metadata.last_updated_ms(), table.metadata_location());
  return rows.Finish();
}

}  // namespace

Result<MetadataTable> ParseMetadataTable(std::string_view name) {
  std::string lower(name);
  std::ranges::transform(lower, lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const auto& [known, which] : kNames) {
    if (lower == known) return which;
  }
  std::string list;
  for (const auto& [known, which] : kNames) list += (list.empty() ? "" : ", ") + std::string(known);
  return InvalidArgument("unknown metadata table '{}'; known: {}", name, list);
}

Result<BatchSchemaPtr> MetadataTableSchema(const table::Table& table, MetadataTable which) {
  TableMetadataPtr metadata = table.metadata();
  switch (which) {
    case MetadataTable::kSnapshots:
      return SnapshotsSchema();
    case MetadataTable::kHistory:
      return HistorySchema();
    case MetadataTable::kFiles:
    case MetadataTable::kDataFiles:
    case MetadataTable::kDeleteFiles:
    case MetadataTable::kAllDataFiles: {
      FLOE_ASSIGN_OR_RETURN(UnifiedPartition partition, UnifiedPartitionOf(*metadata));
      return FilesSchema(partition);
    }
    case MetadataTable::kManifests:
      return ManifestsSchema(false);
    case MetadataTable::kAllManifests:
      return ManifestsSchema(true);
    case MetadataTable::kPartitions: {
      FLOE_ASSIGN_OR_RETURN(UnifiedPartition partition, UnifiedPartitionOf(*metadata));
      return PartitionsSchema(partition);
    }
    case MetadataTable::kRefs:
      return RefsSchema();
    case MetadataTable::kMetadataLogEntries:
      return MetadataLogSchema();
  }
  return InvalidArgument("unknown metadata table");
}

Result<std::vector<RecordBatch>> ReadMetadataTable(const table::Table& table, MetadataTable which) {
  TableMetadataPtr metadata = table.metadata();
  switch (which) {
    case MetadataTable::kSnapshots:
      return SnapshotRows(*metadata);
    case MetadataTable::kHistory:
      return HistoryRows(*metadata);
    case MetadataTable::kFiles:
    case MetadataTable::kDataFiles:
    case MetadataTable::kDeleteFiles:
    case MetadataTable::kAllDataFiles:
      return FileRows(table, *metadata, which);
    case MetadataTable::kManifests:
      return ManifestRows(table, *metadata);
    case MetadataTable::kAllManifests:
      return AllManifestRows(table, *metadata);
    case MetadataTable::kPartitions:
      return PartitionRows(table, *metadata);
    case MetadataTable::kRefs:
      return RefRows(*metadata);
    case MetadataTable::kMetadataLogEntries:
      return MetadataLogRows(table, *metadata);
  }
  return InvalidArgument("unknown metadata table");
}

}  // namespace floe::table
