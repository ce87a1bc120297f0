#include "floe/manifest/manifest_writer.h"

#include <algorithm>
#include <string>

#include "floe/format/avro/encoding.h"
#include "floe/format/avro/schema.h"
#include "floe/io/file_io.h"
#include "floe/manifest/manifest_schema.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/partition_spec_json.h"
#include "floe/spec/schema.h"
#include "floe/spec/schema_json.h"

namespace floe::manifest {
namespace {

using avro::Encoder;

void WriteOptionalLong(Encoder& e, const std::optional<int64_t>& v) {
  if (!v) {
    e.WriteLong(0);
    return;
  }
  e.WriteLong(1);
  e.WriteLong(*v);
}

void WriteOptionalBytes(Encoder& e, const std::optional<std::string>& v) {
  if (!v) {
    e.WriteLong(0);
    return;
  }
  e.WriteLong(1);
  e.WriteBytes(*v);
}

// An Iceberg int->long or int->binary map (an Avro array of key/value records) in an optional
// union: null when empty.
template <typename Map, typename WriteValue>
void WriteIdMap(Encoder& e, const Map& map, WriteValue write_value) {
  if (map.empty()) {
    e.WriteLong(0);
    return;
  }
  e.WriteLong(1);
  e.WriteLong(static_cast<int64_t>(map.size()));
  for (const auto& [id, v] : map) {
    e.WriteInt(id);
    write_value(v);
  }
  e.WriteLong(0);
}

void WriteCountMap(Encoder& e, const CountMap& map) {
  WriteIdMap(e, map, [&](int64_t v) { e.WriteLong(v); });
}

void WriteBoundMap(Encoder& e, const BoundMap& map) {
  WriteIdMap(e, map, [&](const std::string& v) { e.WriteBytes(v); });
}

template <typename T>
void WriteList(Encoder& e, const std::vector<T>& list) {
  if (list.empty()) {
    e.WriteLong(0);
    return;
  }
  e.WriteLong(1);
  e.WriteLong(static_cast<int64_t>(list.size()));
  for (T v : list) e.WriteLong(v);
  e.WriteLong(0);
}

Status WritePartitionValue(Encoder& e, const NestedField& field, const Literal& value) {
  if (field.type->id() == TypeId::kUnknown) return Ok();  // Avro null: no bytes
  if (value.is_null()) {
    e.WriteLong(0);
    return Ok();
  }
  if (!value.type()->Equals(*field.type)) {
    return InvalidArgument("partition field '{}' is {}, the value {}", field.name,
                           field.type->ToString(), value.type()->ToString());
  }
  e.WriteLong(1);
  switch (field.type->id()) {
    case TypeId::kBoolean:
      e.WriteBoolean(value.bool_value());
      break;
    case TypeId::kInt:
    case TypeId::kDate:
      e.WriteInt(value.int_value());
      break;
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      e.WriteLong(value.long_value());
      break;
    case TypeId::kFloat:
      e.WriteFloat(value.float_value());
      break;
    case TypeId::kDouble:
      e.WriteDouble(value.double_value());
      break;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      e.WriteBytes(value.bytes_value());
      break;
    case TypeId::kUuid:
    case TypeId::kFixed:
      e.WriteFixed(value.bytes_value());
      break;
    case TypeId::kDecimal: {
      const auto& p = static_cast<const PrimitiveType&>(*field.type);
      int n = DecimalBytes(p.precision());
      auto v = static_cast<unsigned __int128>(value.decimal_value());
      char buf[16];
      for (int i = n - 1; i >= 0; --i) {
        buf[i] = static_cast<char>(v & 0xFF);
        v >>= 8;
      }
      e.WriteFixed(std::string_view(buf, static_cast<size_t>(n)));
      break;
    }
    default:
      return Unsupported("partition values of type {}", field.type->ToString());
  }
  return Ok();
}

avro::ContainerWriteOptions ContainerOptions(avro::AvroCodec codec,
                                             const std::optional<std::array<std::byte, 16>>& sync,
                                             std::vector<std::pair<std::string, std::string>> md) {
  avro::ContainerWriteOptions o;
  o.codec = codec;
  o.sync = sync;
  o.metadata = std::move(md);
  return o;
}

// Sinks into a file the writer opened, keeping it for Close.
ByteSink FileSink(io::FileWriter* file) {
  return [file](std::span<const std::byte> bytes) { return file->Write(bytes); };
}

}  // namespace

ManifestWriter::ManifestWriter() = default;
ManifestWriter::~ManifestWriter() = default;

Result<std::unique_ptr<ManifestWriter>> ManifestWriter::Open(ByteSink sink, std::string path,
                                                             const Schema& schema,
                                                             const PartitionSpec& spec,
                                                             ManifestWriterOptions options) {
  std::unique_ptr<ManifestWriter> w(new ManifestWriter());
  FLOE_ASSIGN_OR_RETURN(w->partition_type_, spec.PartitionType(schema));
  FLOE_ASSIGN_OR_RETURN(auto avro_schema,
                        ManifestEntrySchema(options.format_version, *w->partition_type_));
  if (options.format_version == 1 && options.content != ManifestContent::kData) {
    return InvalidArgument("{}: v1 manifests hold only data files", path);
  }
  std::vector<std::pair<std::string, std::string>> md;
  md.emplace_back("schema", SchemaToJson(schema).Dump());
  md.emplace_back("schema-id", std::to_string(schema.schema_id()));
  md.emplace_back("partition-spec", PartitionFieldsToJson(spec).Dump());
  md.emplace_back("partition-spec-id", std::to_string(spec.spec_id()));
  md.emplace_back("format-version", std::to_string(options.format_version));
  if (options.format_version >= 2) {
    md.emplace_back("content", std::string(ManifestContentName(options.content)));
  }
  FLOE_ASSIGN_OR_RETURN(
      w->writer_,
      avro::ContainerWriter::Open(std::move(avro_schema), std::move(sink),
                                  ContainerOptions(options.codec, options.sync, std::move(md))));
  w->summary_ = std::make_unique<PartitionSummary>(w->partition_type_);
  w->spec_id_ = spec.spec_id();
  w->path_ = std::move(path);
  w->options_ = std::move(options);
  w->result_.added_files_count = 0;
  w->result_.existing_files_count = 0;
  w->result_.deleted_files_count = 0;
  w->result_.added_rows_count = 0;
  w->result_.existing_rows_count = 0;
  w->result_.deleted_rows_count = 0;
  return w;
}

Result<std::unique_ptr<ManifestWriter>> ManifestWriter::Open(io::OutputFile& file,
                                                             const Schema& schema,
                                                             const PartitionSpec& spec,
                                                             ManifestWriterOptions options) {
  FLOE_ASSIGN_OR_RETURN(auto writer, file.Create());
  io::FileWriter* raw = writer.get();
  FLOE_ASSIGN_OR_RETURN(auto w,
                        Open(FileSink(raw), file.location(), schema, spec, std::move(options)));
  w->file_ = std::move(writer);
  return w;
}

Status ManifestWriter::Encode(const ManifestEntry& entry) {
  const int version = options_.format_version;
  const DataFile& f = entry.data_file;
  Encoder& e = writer_->encoder();
  e.WriteInt(static_cast<int32_t>(entry.status));
  if (version == 1) {
    e.WriteLong(entry.snapshot_id.value_or(options_.snapshot_id));
  } else {
    WriteOptionalLong(e, entry.snapshot_id);
    WriteOptionalLong(e, entry.sequence_number);
    WriteOptionalLong(e, entry.file_sequence_number);
    e.WriteInt(static_cast<int32_t>(f.content));
  }
  e.WriteBytes(f.file_path);
  e.WriteBytes(f.file_format);
  auto fields = partition_type_->fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    FLOE_RETURN_IF_ERROR(WritePartitionValue(e, fields[i], f.partition[i]));
  }
  e.WriteLong(f.record_count);
  e.WriteLong(f.file_size_in_bytes);
  if (version == 1) e.WriteLong(int64_t{64} << 20);  // block_size_in_bytes: the default Java writes
  WriteCountMap(e, f.column_sizes);
  WriteCountMap(e, f.value_counts);
  WriteCountMap(e, f.null_value_counts);
  WriteCountMap(e, f.nan_value_counts);
  WriteBoundMap(e, f.lower_bounds);
  WriteBoundMap(e, f.upper_bounds);
  WriteOptionalBytes(e, f.key_metadata);
  WriteList(e, f.split_offsets);
  if (version >= 2) WriteList(e, f.equality_ids);
  WriteOptionalLong(e, f.sort_order_id ? std::optional<int64_t>(*f.sort_order_id) : std::nullopt);
  if (version >= 3) WriteOptionalLong(e, f.first_row_id);
  if (version >= 2) WriteOptionalBytes(e, f.referenced_data_file);
  if (version >= 3) {
    WriteOptionalLong(e, f.content_offset);
    WriteOptionalLong(e, f.content_size_in_bytes);
  }
  return writer_->RecordWritten();
}

Status ManifestWriter::Add(const ManifestEntry& entry) {
  const DataFile& f = entry.data_file;
  const int version = options_.format_version;
  if (f.partition.size() != partition_type_->fields().size()) {
    return InvalidArgument("{}: {}: partition tuple has {} values, the spec {} fields", path_,
                           f.file_path, f.partition.size(), partition_type_->fields().size());
  }
  bool is_delete = f.content != FileContent::kData;
  if (is_delete != (options_.content == ManifestContent::kDeletes)) {
    return InvalidArgument("{}: {} file {} in a {} manifest", path_, FileContentName(f.content),
                           f.file_path, ManifestContentName(options_.content));
  }
  if (version == 1 && !entry.snapshot_id && options_.snapshot_id == 0) {
    return InvalidArgument("{}: v1 entries need a snapshot id ({})", path_, f.file_path);
  }
  if (version < 3 && (f.first_row_id || f.content_offset || f.content_size_in_bytes)) {
    return InvalidArgument("{}: {}: first_row_id and content offsets need format version 3", path_,
                           f.file_path);
  }
  if (entry.status != EntryStatus::kAdded && version >= 2 &&
      (!entry.sequence_number || !entry.file_sequence_number)) {
    return InvalidArgument("{}: {} entry {} needs explicit sequence numbers", path_,
                           EntryStatusName(entry.status), f.file_path);
  }
  // Validate before encoding so that a refused entry leaves nothing half-written.
  FLOE_RETURN_IF_ERROR(summary_->Update(f.partition));
  size_t before = writer_->encoder().size();
  Status status = Encode(entry);
  if (!status) {
    writer_->encoder().buffer().resize(before);
    return status;
  }
  switch (entry.status) {
    case EntryStatus::kAdded:
      ++*result_.added_files_count;
      *result_.added_rows_count += f.record_count;
      break;
    case EntryStatus::kExisting:
      ++*result_.existing_files_count;
      *result_.existing_rows_count += f.record_count;
      break;
    case EntryStatus::kDeleted:
      ++*result_.deleted_files_count;
      *result_.deleted_rows_count += f.record_count;
      break;
  }
  if (entry.status != EntryStatus::kDeleted) {
    if (entry.sequence_number) {
      min_sequence_number_ =
          std::min(min_sequence_number_.value_or(*entry.sequence_number), *entry.sequence_number);
    } else {
      unassigned_sequence_number_ = true;
    }
  }
  return Ok();
}

Result<ManifestFile> ManifestWriter::Close() {
  FLOE_RETURN_IF_ERROR(writer_->Close());
  if (file_) FLOE_RETURN_IF_ERROR(file_->Close());
  ManifestFile m = result_;
  m.manifest_path = path_;
  m.manifest_length = static_cast<int64_t>(writer_->bytes_written());
  m.partition_spec_id = spec_id_;
  m.content = options_.content;
  m.added_snapshot_id = options_.snapshot_id;
  if (options_.format_version == 1) {
    m.sequence_number = 0;
    m.min_sequence_number = 0;
  } else {
    m.sequence_number = kUnassignedSequenceNumber;
    m.min_sequence_number = unassigned_sequence_number_ || !min_sequence_number_
                                ? kUnassignedSequenceNumber
                                : *min_sequence_number_;
  }
  FLOE_ASSIGN_OR_RETURN(m.partitions, summary_->Summaries());
  return m;
}

ManifestListWriter::ManifestListWriter() = default;
ManifestListWriter::~ManifestListWriter() = default;

Result<std::unique_ptr<ManifestListWriter>> ManifestListWriter::Open(
    ByteSink sink, ManifestListWriterOptions options) {
  std::unique_ptr<ManifestListWriter> w(new ManifestListWriter());
  FLOE_ASSIGN_OR_RETURN(auto schema, ManifestListSchema(options.format_version));
  if (options.format_version >= 3 && !options.first_row_id) {
    return InvalidArgument("a v3 manifest list needs the snapshot's first-row-id");
  }
  std::vector<std::pair<std::string, std::string>> md;
  md.emplace_back("snapshot-id", std::to_string(options.snapshot_id));
  md.emplace_back("parent-snapshot-id", options.parent_snapshot_id
                                            ? std::to_string(*options.parent_snapshot_id)
                                            : std::string("null"));
  if (options.format_version >= 2) {
    md.emplace_back("sequence-number", std::to_string(options.sequence_number));
  }
  if (options.format_version >= 3) {
    md.emplace_back("first-row-id", std::to_string(*options.first_row_id));
  }
  md.emplace_back("format-version", std::to_string(options.format_version));
  FLOE_ASSIGN_OR_RETURN(
      w->writer_,
      avro::ContainerWriter::Open(std::move(schema), std::move(sink),
                                  ContainerOptions(options.codec, options.sync, std::move(md))));
  w->next_row_id_ = options.first_row_id;
  w->options_ = std::move(options);
  return w;
}

Result<std::unique_ptr<ManifestListWriter>> ManifestListWriter::Open(
    io::OutputFile& file, ManifestListWriterOptions options) {
  FLOE_ASSIGN_OR_RETURN(auto writer, file.Create());
  io::FileWriter* raw = writer.get();
  FLOE_ASSIGN_OR_RETURN(auto w, Open(FileSink(raw), std::move(options)));
  w->file_ = std::move(writer);
  return w;
}

Status ManifestListWriter::Add(const ManifestFile& manifest) {
  const int version = options_.format_version;
  if (version == 1 && manifest.content != ManifestContent::kData) {
    return InvalidArgument("{}: v1 manifest lists hold only data manifests",
                           manifest.manifest_path);
  }
  auto seq = [this](int64_t v) {
    return v == kUnassignedSequenceNumber ? options_.sequence_number : v;
  };
  Encoder& e = writer_->encoder();
  e.WriteBytes(manifest.manifest_path);
  e.WriteLong(manifest.manifest_length);
  e.WriteInt(manifest.partition_spec_id);
  auto opt_int = [&e](const std::optional<int32_t>& v) {
    WriteOptionalLong(e, v ? std::optional<int64_t>(*v) : std::nullopt);
  };
  auto write_partitions = [&e, &manifest] {
    if (!manifest.partitions) {
      e.WriteLong(0);
      return;
    }
    e.WriteLong(1);
    if (!manifest.partitions->empty()) {
      e.WriteLong(static_cast<int64_t>(manifest.partitions->size()));
      for (const FieldSummary& s : *manifest.partitions) {
        e.WriteBoolean(s.contains_null);
        if (s.contains_nan) {
          e.WriteLong(1);
          e.WriteBoolean(*s.contains_nan);
        } else {
          e.WriteLong(0);
        }
        WriteOptionalBytes(e, s.lower_bound);
        WriteOptionalBytes(e, s.upper_bound);
      }
    }
    e.WriteLong(0);
  };
  if (version == 1) {
    e.WriteLong(manifest.added_snapshot_id);
    opt_int(manifest.added_files_count);
    opt_int(manifest.existing_files_count);
    opt_int(manifest.deleted_files_count);
    write_partitions();
    WriteOptionalLong(e, manifest.added_rows_count);
    WriteOptionalLong(e, manifest.existing_rows_count);
    WriteOptionalLong(e, manifest.deleted_rows_count);
    WriteOptionalBytes(e, manifest.key_metadata);
  } else {
    e.WriteInt(static_cast<int32_t>(manifest.content));
    e.WriteLong(seq(manifest.sequence_number));
    e.WriteLong(seq(manifest.min_sequence_number));
    e.WriteLong(manifest.added_snapshot_id);
    e.WriteInt(manifest.added_files_count.value_or(0));
    e.WriteInt(manifest.existing_files_count.value_or(0));
    e.WriteInt(manifest.deleted_files_count.value_or(0));
    e.WriteLong(manifest.added_rows_count.value_or(0));
    e.WriteLong(manifest.existing_rows_count.value_or(0));
    e.WriteLong(manifest.deleted_rows_count.value_or(0));
    write_partitions();
    WriteOptionalBytes(e, manifest.key_metadata);
    if (version >= 3) {
      std::optional<int64_t> first_row_id = manifest.first_row_id;
      if (manifest.content == ManifestContent::kData && !first_row_id) {
        first_row_id = *next_row_id_;
        *next_row_id_ +=
            manifest.added_rows_count.value_or(0) + manifest.existing_rows_count.value_or(0);
      } else if (manifest.content != ManifestContent::kData) {
        first_row_id.reset();
      }
      WriteOptionalLong(e, first_row_id);
    }
  }
  return writer_->RecordWritten();
}

Status ManifestListWriter::Close() {
  FLOE_RETURN_IF_ERROR(writer_->Close());
  if (file_) FLOE_RETURN_IF_ERROR(file_->Close());
  return Ok();
}

}  // namespace floe::manifest
