#include "floe/table/update/snapshot_producer.h"

#include <fmt/core.h>

#include <limits>
#include <map>
#include <set>

#include "floe/io/file_io.h"
#include "floe/io/location.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/manifest/manifest_writer.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/table/table.h"
#include "floe/util/clock.h"
#include "floe/util/uuid.h"

namespace floe::table {
int64_t NewSnapshotId(const TableMetadata& base) {
  while (true) {
    auto id = static_cast<int64_t>(RandomU64() & std::numeric_limits<int64_t>::max());
    if (id != 0 && !base.SnapshotById(id)) return id;
  }
}

std::string MetadataFolder(const TableMetadata& metadata) {
  std::string_view path = metadata.property("write.metadata.path");
  if (!path.empty()) return io::NormalizeLocation(path);
  return io::JoinLocation(io::NormalizeLocation(metadata.location()), "metadata");
}

Status CheckAddedFile(const TableMetadata& base, const manifest::DataFile& file,
                      bool deletes_allowed) {
  PartitionSpecPtr spec = base.SpecById(file.spec_id);
  if (!spec) {
    return InvalidArgument("{}: partition spec {} is not in the table", file.file_path,
                           file.spec_id);
  }
  if (file.partition.size() != spec->fields().size()) {
    return InvalidArgument("{}: partition has {} values, spec {} has {} fields", file.file_path,
                           file.partition.size(), spec->spec_id(), spec->fields().size());
  }
  if (file.content != manifest::FileContent::kData) {
    if (!deletes_allowed) {
      return InvalidArgument("{}: a delete file cannot be added by this operation", file.file_path);
    }
    if (base.format_version() < 2) {
      return InvalidArgument("{}: delete files need format version 2 or later", file.file_path);
    }
    if (base.format_version() >= 3 && file.content == manifest::FileContent::kPositionDeletes &&
        file.file_format != "puffin") {
      return InvalidArgument(
          "{}: a format v{} table takes deletion vectors, not position delete files",
          file.file_path, base.format_version());
    }
  }
  return Ok();
}

SnapshotProducer::SnapshotProducer(Table& table)
    : PendingUpdate(table), commit_uuid_(RandomUuid()) {}

SnapshotProducer& SnapshotProducer::ToBranch(std::string branch) {
  branch_ = std::move(branch);
  return *this;
}

SnapshotProducer& SnapshotProducer::SetSummaryProperty(std::string key, std::string value) {
  summary_properties_[std::move(key)] = std::move(value);
  return *this;
}

SnapshotProducer& SnapshotProducer::SetSummaryFromBase(SummaryFromBase summary_from_base) {
  summary_from_base_ = std::move(summary_from_base);
  return *this;
}

SnapshotProducer& SnapshotProducer::StageOnly() {
  stage_only_ = true;
  return *this;
}

io::FileIO& SnapshotProducer::io() const { return *table().io(); }

Status SnapshotProducer::WriteNew(const std::string& location, std::string_view bytes) {
  FLOE_ASSIGN_OR_RETURN(auto output, io().NewOutputFile(location));
  written_.push_back(location);
  FLOE_ASSIGN_OR_RETURN(auto writer, output->Create());
  FLOE_RETURN_IF_ERROR(writer->Write(bytes));
  FLOE_RETURN_IF_ERROR(writer->Sync());
  return writer->Close();
}

Result<manifest::ManifestFile> SnapshotProducer::WriteManifest(
    const TableMetadata& base, int32_t spec_id, manifest::ManifestContent content,
    std::span<const manifest::ManifestEntry> entries) {
  PartitionSpecPtr spec = base.SpecById(spec_id);
  if (!spec) return InvalidArgument("partition spec {} is not in the table", spec_id);
  std::string path = io::JoinLocation(metadata_folder_,
                                      fmt::format("{}-m{}.avro", commit_uuid_, manifest_count_++));
  std::string bytes;
  manifest::ByteSink sink = [&bytes](std::span<const std::byte> data) {
    bytes.append(reinterpret_cast<const char*>(data.data()), data.size());
    return Ok();
  };
  manifest::ManifestWriterOptions options;
  options.format_version = base.format_version();
  options.content = content;
  options.snapshot_id = snapshot_id_;
  FLOE_ASSIGN_OR_RETURN(auto writer, manifest::ManifestWriter::Open(
                                         sink, path, *base.current_schema(), *spec, options));
  for (const manifest::ManifestEntry& entry : entries) FLOE_RETURN_IF_ERROR(writer->Add(entry));
  FLOE_ASSIGN_OR_RETURN(manifest::ManifestFile file, writer->Close());
  FLOE_RETURN_IF_ERROR(WriteNew(path, bytes));
  file.manifest_length = static_cast<int64_t>(bytes.size());
  return file;
}

Result<std::vector<manifest::ManifestFile>> SnapshotProducer::WriteAddedManifests(
    const TableMetadata& base, std::span<const manifest::ManifestEntry> entries) {
  std::map<std::pair<int, int32_t>, std::vector<manifest::ManifestEntry>> groups;
  for (const manifest::ManifestEntry& entry : entries) {
    manifest::ManifestEntry added = entry;
    added.status = manifest::EntryStatus::kAdded;
    added.snapshot_id = snapshot_id_;
    added.file_sequence_number.reset();
    bool is_delete = entry.data_file.content != manifest::FileContent::kData;
    groups[{is_delete ? 1 : 0, entry.data_file.spec_id}].push_back(std::move(added));
  }
  std::vector<manifest::ManifestFile> out;
  for (const auto& [key, group] : groups) {
    auto content =
        key.first ? manifest::ManifestContent::kDeletes : manifest::ManifestContent::kData;
    FLOE_ASSIGN_OR_RETURN(manifest::ManifestFile file,
                          WriteManifest(base, key.second, content, group));
    out.push_back(std::move(file));
  }
  return out;
}

Result<std::vector<manifest::ManifestFile>> SnapshotProducer::ReadManifests(
    const Snapshot& snapshot) const {
  if (snapshot.manifest_list.empty()) {
    return Unsupported(
        "snapshot {} lists its manifests inline (v1); floe commits need a manifest list",
        snapshot.snapshot_id);
  }
  FLOE_ASSIGN_OR_RETURN(auto input, io().NewInputFile(snapshot.manifest_list));
  return manifest::ReadManifestList(*input);
}

Result<std::vector<manifest::ManifestEntry>> SnapshotProducer::ReadEntries(
    const manifest::ManifestFile& manifest) const {
  FLOE_ASSIGN_OR_RETURN(auto input, io().NewInputFile(manifest.manifest_path));
  FLOE_ASSIGN_OR_RETURN(auto reader, manifest::ManifestReader::Open(*input, &manifest));
  FLOE_ASSIGN_OR_RETURN(auto entries, reader->ReadAll());
  for (auto& entry : entries) entry.data_file.spec_id = manifest.partition_spec_id;
  return entries;
}

Result<std::string> SnapshotProducer::WriteManifestList(
    const TableMetadata& base, const Snapshot* parent,
    std::span<const manifest::ManifestFile> manifests, std::optional<int64_t>& added_rows) {
  std::string path = io::JoinLocation(
      metadata_folder_, fmt::format("snap-{}-{}-{}.avro", snapshot_id_, attempt_, commit_uuid_));
  manifest::ManifestListWriterOptions options;
  options.format_version = base.format_version();
  options.snapshot_id = snapshot_id_;
  if (parent) options.parent_snapshot_id = parent->snapshot_id;
  options.sequence_number = sequence_number_;
  if (base.format_version() >= 3) options.first_row_id = base.next_row_id();
  std::string bytes;
  manifest::ByteSink sink = [&bytes](std::span<const std::byte> data) {
    bytes.append(reinterpret_cast<const char*>(data.data()), data.size());
    return Ok();
  };
  FLOE_ASSIGN_OR_RETURN(auto writer, manifest::ManifestListWriter::Open(sink, options));
  for (const manifest::ManifestFile& manifest : manifests) {
    FLOE_RETURN_IF_ERROR(writer->Add(manifest));
  }
  FLOE_RETURN_IF_ERROR(writer->Close());
  if (base.format_version() >= 3) {
    added_rows = writer->next_row_id().value_or(base.next_row_id()) - base.next_row_id();
  }
  FLOE_RETURN_IF_ERROR(WriteNew(path, bytes));
  return path;
}

Result<std::vector<catalog::TableUpdate>> SnapshotProducer::Apply(const TableMetadata& base) {
  ++attempt_;
  metadata_folder_ = MetadataFolder(base);
  if (snapshot_id_ == 0 || base.SnapshotById(snapshot_id_)) snapshot_id_ = NewSnapshotId(base);
  sequence_number_ = base.format_version() >= 2 ? base.last_sequence_number() + 1 : 0;

  const SnapshotRef* ref = base.FindRef(branch_);
  if (ref && !ref->is_branch()) {
    return InvalidArgument("cannot commit to '{}': it is a tag, not a branch", branch_);
  }
  SnapshotPtr parent = ref ? base.SnapshotById(ref->snapshot_id) : base.current_snapshot();

  StringMap from_base;
  if (summary_from_base_) {
    FLOE_ASSIGN_OR_RETURN(from_base, summary_from_base_(base, parent.get()));
  }

  SnapshotSummaryBuilder summary;
  FLOE_ASSIGN_OR_RETURN(std::vector<manifest::ManifestFile> manifests,
                        Manifests(base, parent.get(), summary));
  std::optional<int64_t> added_rows;
  FLOE_ASSIGN_OR_RETURN(std::string list,
                        WriteManifestList(base, parent.get(), manifests, added_rows));

  auto snapshot = std::make_shared<Snapshot>();
  snapshot->snapshot_id = snapshot_id_;
  if (parent) snapshot->parent_snapshot_id = parent->snapshot_id;
  snapshot->sequence_number = sequence_number_;
  snapshot->timestamp_ms = std::max(NowMs(), base.last_updated_ms());
  snapshot->manifest_list = list;
  // Read after Manifests: producers set properties while they write them (a cherry-pick's source).
  StringMap properties = summary_properties_;
  for (auto& [key, value] : from_base) properties[key] = std::move(value);
  properties["operation"] = std::string(operation());
  snapshot->summary = summary.Build(parent ? &parent->summary : nullptr, std::move(properties));
  snapshot->schema_id = base.current_schema_id();
  if (base.format_version() >= 3) {
    snapshot->first_row_id = base.next_row_id();
    snapshot->added_rows = added_rows;
  }

  std::vector<catalog::TableUpdate> updates;
  updates.push_back(catalog::AddSnapshot{snapshot});
  if (!stage_only_) {
    SnapshotRef moved = ref ? *ref : SnapshotRef{};
    moved.snapshot_id = snapshot_id_;
    updates.push_back(catalog::SetSnapshotRef{branch_, moved});
  }
  return updates;
}

void SnapshotProducer::Finish(const TableMetadata* committed) {
  std::set<std::string> keep;
  SnapshotPtr snapshot = committed ? committed->SnapshotById(snapshot_id_) : nullptr;
  if (committed && !snapshot) return;  // expired in the same transaction: files are not ours
  if (snapshot) {
    Result<std::vector<manifest::ManifestFile>> manifests = ReadManifests(*snapshot);
    if (!manifests) return;  // cannot tell what is referenced: keep everything
    keep.insert(snapshot->manifest_list);
    for (const auto& manifest : *manifests) keep.insert(manifest.manifest_path);
  }
  for (const std::string& path : written_) {
    if (!keep.contains(path)) (void)io().Delete(path);
  }
  written_.clear();
}

}  // namespace floe::table
