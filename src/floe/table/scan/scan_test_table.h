#pragma once

// Test helper: a small Iceberg table written with floe's own manifest writers into a temp folder,
// snapshot by snapshot, so that scan planning tests control every entry, sequence number and
// partition. Metadata is kept in memory (a TableMetadataPtr); manifests and manifest lists are
// real Avro files.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "floe/io/local_file_io.h"
#include "floe/manifest/manifest_writer.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/sort_order.h"
#include "floe/spec/table_metadata.h"
#include "floe/testing/testing.h"

namespace floe::table::testing {

// Columns: 1 id long (required), 2 region string, 3 ts timestamp. Specs: 0 unpartitioned,
// 1 identity(region), 2 bucket(id, 4) (for partition evolution).
class ScanTestTable {
 public:
  explicit ScanTestTable(int format_version = 2) : format_version_(format_version) {
    schema_ = *Schema::Make(
        {types::Required(1, "id", types::Long()), types::Optional(2, "region", types::String()),
         types::Optional(3, "ts", types::Timestamp())},
        0);
    specs_.push_back(PartitionSpec::Unpartitioned());
    specs_.push_back(*PartitionSpec::Make(
        *schema_, 1, {{.source_ids = {2}, .field_id = 1000, .name = "region"}}));
    specs_.push_back(*PartitionSpec::Make(*schema_, 2,
                                          {{.source_ids = {1},
                                            .field_id = 1001,
                                            .name = "id_bucket",
                                            .transform = Transform::Bucket(4)}}));
  }

  io::LocalFileIO& io() { return io_; }
  std::shared_ptr<io::FileIO> shared_io() { return std::make_shared<io::LocalFileIO>(); }
  const SchemaPtr& schema() const { return schema_; }
  const PartitionSpecPtr& spec(int id) const { return specs_[id]; }
  std::string location() const { return dir_.path().string(); }

  // A data file with id bounds [lo, hi] and record count rows.
  static manifest::DataFile Data(std::string name, std::vector<Literal> partition, int64_t lo,
                                 int64_t hi, int64_t rows = 10) {
    manifest::DataFile f;
    f.file_path = name;
    f.file_format = "parquet";
    f.partition = std::move(partition);
    f.record_count = rows;
    f.file_size_in_bytes = rows * 100;
    f.value_counts = {{1, rows}};
    f.null_value_counts = {{1, 0}};
    f.lower_bounds = {{1, *Literal::Long(lo).ToBinary()}};
    f.upper_bounds = {{1, *Literal::Long(hi).ToBinary()}};
    return f;
  }

  // Writes a manifest of spec_id holding entries (ADDED by snapshot_id unless an entry says
  // otherwise); sequence numbers left unset are inherited from the list.
  manifest::ManifestFile Manifest(int spec_id, manifest::ManifestContent content,
                                  int64_t snapshot_id,
                                  const std::vector<manifest::ManifestEntry>& entries) {
    manifest::ManifestWriterOptions o;
    o.format_version = format_version_;
    o.content = content;
    o.snapshot_id = snapshot_id;
    std::string path = location() + "/metadata/m" + std::to_string(next_file_++) + ".avro";
    auto out = *io_.NewOutputFile(path);
    auto writer = manifest::ManifestWriter::Open(*out, *schema_, *specs_[spec_id], o);
    EXPECT_TRUE(writer.has_value()) << writer.error().ToString();
    for (const auto& e : entries) {
      auto s = (*writer)->Add(e);
      EXPECT_TRUE(s.has_value()) << s.error().ToString();
    }
    auto file = (*writer)->Close();
    EXPECT_TRUE(file.has_value()) << file.error().ToString();
    return *file;
  }

  static manifest::ManifestEntry Added(manifest::DataFile f, int64_t snapshot_id) {
    manifest::ManifestEntry e;
    e.status = manifest::EntryStatus::kAdded;
    e.snapshot_id = snapshot_id;
    e.data_file = std::move(f);
    return e;
  }
  static manifest::ManifestEntry WithStatus(manifest::DataFile f, manifest::EntryStatus status,
                                            int64_t snapshot_id, int64_t seq) {
    manifest::ManifestEntry e;
    e.status = status;
    e.snapshot_id = snapshot_id;
    e.sequence_number = seq;
    e.file_sequence_number = seq;
    e.data_file = std::move(f);
    return e;
  }

  // Commits a snapshot (id, sequence number = count of snapshots + 1) whose manifest list holds
  // manifests, as the current snapshot at timestamp_ms; returns the new metadata.
  TableMetadataPtr Commit(int64_t snapshot_id, std::string operation,
                          const std::vector<manifest::ManifestFile>& manifests,
                          int64_t timestamp_ms) {
    int64_t seq = format_version_ >= 2 ? static_cast<int64_t>(snapshots_.size()) + 1 : 0;
    manifest::ManifestListWriterOptions o;
    o.format_version = format_version_;
    o.snapshot_id = snapshot_id;
    if (!snapshots_.empty()) o.parent_snapshot_id = snapshots_.back()->snapshot_id;
    o.sequence_number = seq;
    if (format_version_ >= 3) o.first_row_id = 0;
    std::string list = location() + "/metadata/snap-" + std::to_string(snapshot_id) + ".avro";
    auto out = *io_.NewOutputFile(list);
    auto writer = *manifest::ManifestListWriter::Open(*out, o);
    for (const auto& m : manifests) EXPECT_TRUE(writer->Add(m).has_value());
    EXPECT_TRUE(writer->Close().has_value());
    auto snapshot = std::make_shared<const Snapshot>(
        Snapshot{.snapshot_id = snapshot_id,
                 .parent_snapshot_id = o.parent_snapshot_id,
                 .sequence_number = seq,
                 .timestamp_ms = timestamp_ms,
                 .manifest_list = list,
                 .summary = {{"operation", std::move(operation)}},
                 .schema_id = 0,
                 .first_row_id = format_version_ >= 3 ? std::optional<int64_t>(0) : std::nullopt,
                 .added_rows = format_version_ >= 3 ? std::optional<int64_t>(0) : std::nullopt});
    snapshots_.push_back(snapshot);
    log_.push_back({timestamp_ms, snapshot_id});
    return Build();
  }

  TableMetadataPtr Build(const std::vector<std::pair<std::string, SnapshotRef>>& refs = {}) {
    TableMetadataBuilder b(format_version_);
    b.SetTableUuid("fb072c92-a02b-11e9-ae9c-1bb7bc9eca94")
        .SetLocation(location())
        .SetLastUpdatedMs(snapshots_.empty() ? 0 : snapshots_.back()->timestamp_ms)
        .SetLastColumnId(3)
        .AddSchema(schema_)
        .SetCurrentSchemaId(0)
        .AddSortOrder(SortOrder::Unsorted())
        .SetDefaultSortOrderId(0)
        .SetLastPartitionId(1001)
        .SetLastSequenceNumber(format_version_ >= 2 ? static_cast<int64_t>(snapshots_.size()) : 0);
    for (const auto& spec : specs_) b.AddPartitionSpec(spec);
    b.SetDefaultSpecId(1);
    for (const auto& s : snapshots_) b.AddSnapshot(s);
    for (const auto& entry : log_) b.AddSnapshotLogEntry(entry);
    if (!snapshots_.empty()) b.SetCurrentSnapshotId(snapshots_.back()->snapshot_id);
    for (const auto& [name, ref] : refs) b.SetRef(name, ref);
    auto m = b.Build();
    EXPECT_TRUE(m.has_value()) << m.error().ToString();
    return *m;
  }

 private:
  int format_version_;
  floe::testing::TempDir dir_;
  io::LocalFileIO io_;
  SchemaPtr schema_;
  std::vector<PartitionSpecPtr> specs_;
  std::vector<SnapshotPtr> snapshots_;
  std::vector<SnapshotLogEntry> log_;
  int next_file_ = 0;
};

}  // namespace floe::table::testing
