#pragma once

// Commits the catalog tests share: a create commit (assert-create and the updates of a new
// table) with the checks every catalog must pass on it; a fast append of one data file (a real
// manifest and manifest list, the manifests of the parent carried over), retried on conflicts, and
// a reader of every data file and snapshot a table's current state holds.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "floe/catalog/catalog.h"
#include "floe/catalog/table_update.h"
#include "floe/io/file_io.h"
#include "floe/io/location.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/manifest/manifest_writer.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/sort_order.h"
#include "floe/spec/table_metadata_io.h"
#include "floe/testing/testing.h"
#include "floe/util/uuid.h"

namespace floe::catalog::testing {

inline SchemaPtr SimpleSchema() {
  using namespace floe::types;
  return std::make_shared<Schema>(
      std::vector<NestedField>{Required(1, "id", Long()), Optional(2, "data", String())});
}

// The commit that appends the data file `<location>/data/<tag>.parquet` on top of table.
inline Result<TableCommit> AppendCommit(io::FileIO& io, const LoadedTable& table,
                                        const std::string& tag) {
  const TableMetadata& base = *table.metadata;
  auto snapshot = std::make_shared<Snapshot>();
  snapshot->snapshot_id = static_cast<int64_t>(RandomU64() >> 1);
  SnapshotPtr parent = base.current_snapshot();
  if (parent) snapshot->parent_snapshot_id = parent->snapshot_id;
  snapshot->sequence_number = base.format_version() >= 2 ? base.last_sequence_number() + 1 : 0;
  snapshot->timestamp_ms = base.last_updated_ms() + 1;
  snapshot->summary = {{"operation", "append"}, {"writer", tag}};
  snapshot->schema_id = base.current_schema_id();

  std::string metadata_folder = io::JoinLocation(base.location(), "metadata");
  std::string unique = RandomUuid();
  std::string manifest_path = io::JoinLocation(metadata_folder, unique + "-m0.avro");
  manifest::ManifestFile added;
  {
    FLOE_ASSIGN_OR_RETURN(auto file, io.NewOutputFile(manifest_path));
    manifest::ManifestWriterOptions options;
    options.format_version = base.format_version();
    options.snapshot_id = snapshot->snapshot_id;
    FLOE_ASSIGN_OR_RETURN(auto writer,
                          manifest::ManifestWriter::Open(*file, *base.current_schema(),
                                                         *base.default_spec(), options));
    manifest::ManifestEntry entry;
    entry.status = manifest::EntryStatus::kAdded;
    entry.snapshot_id = snapshot->snapshot_id;
    entry.data_file.file_path = io::JoinLocation(base.location(), "data/" + tag + ".parquet");
    entry.data_file.file_format = "parquet";
    entry.data_file.record_count = 1;
    entry.data_file.file_size_in_bytes = 100;
    // In a partitioned table, the file is in the all-null partition.
    FLOE_ASSIGN_OR_RETURN(auto partition_type,
                          base.default_spec()->PartitionType(*base.current_schema()));
    for (const NestedField& field : partition_type->fields()) {
      entry.data_file.partition.push_back(Literal::Null(field.type));
    }
    FLOE_RETURN_IF_ERROR(writer->Add(entry));
    FLOE_ASSIGN_OR_RETURN(added, writer->Close());
  }
  std::vector<manifest::ManifestFile> manifests{added};
  if (parent) {
    FLOE_ASSIGN_OR_RETURN(auto input, io.NewInputFile(parent->manifest_list));
    FLOE_ASSIGN_OR_RETURN(auto previous, manifest::ReadManifestList(*input));
    manifests.insert(manifests.end(), previous.begin(), previous.end());
  }
  snapshot->manifest_list = io::JoinLocation(
      metadata_folder, fmt::format("snap-{}-1-{}.avro", snapshot->snapshot_id, unique));
  {
    FLOE_ASSIGN_OR_RETURN(auto file, io.NewOutputFile(snapshot->manifest_list));
    manifest::ManifestListWriterOptions options;
    options.format_version = base.format_version();
    options.snapshot_id = snapshot->snapshot_id;
    options.parent_snapshot_id = snapshot->parent_snapshot_id;
    options.sequence_number = snapshot->sequence_number;
    FLOE_ASSIGN_OR_RETURN(auto writer, manifest::ManifestListWriter::Open(*file, options));
    for (const auto& manifest : manifests) FLOE_RETURN_IF_ERROR(writer->Add(manifest));
    FLOE_RETURN_IF_ERROR(writer->Close());
  }

  TableCommit commit;
  commit.requirements.emplace_back(std::in_place_type<AssertTableUuid>, base.table_uuid());
  commit.requirements.emplace_back(std::in_place_type<AssertRefSnapshotId>, "main",
                                   parent ? std::optional(parent->snapshot_id) : std::nullopt);
  SnapshotRef ref;
  ref.snapshot_id = snapshot->snapshot_id;
  commit.updates.push_back(AddSnapshot{snapshot});
  commit.updates.push_back(SetSnapshotRef{"main", ref});
  return commit;
}

// Appends, reloading and retrying while the commit loses races, after a random wait that grows
// with the attempts (as commit.retry.* does), so that losers do not all retry at once. Returns the
// number of attempts.
inline Result<int> AppendWithRetry(Catalog& catalog, const TableIdentifier& ident,
                                   const std::string& tag) {
  for (int attempt = 1;; ++attempt) {
    catalog.Invalidate(ident);
    FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(ident));
    FLOE_ASSIGN_OR_RETURN(TableCommit commit, AppendCommit(*catalog.file_io(), table, tag));
    auto committed = catalog.CommitTable(ident, commit);
    if (committed) return attempt;
    if (committed.error().kind() != ErrorKind::kCommitFailed || !committed.error().retryable()) {
      return std::unexpected(committed.error());
    }
    uint64_t max_wait_us = uint64_t{1000} << std::min(attempt, 6);
    std::this_thread::sleep_for(std::chrono::microseconds(RandomU64() % max_wait_us));
  }
}

// The data files of the current snapshot, in manifest order (duplicates kept).
inline Result<std::vector<std::string>> CurrentDataFiles(io::FileIO& io,
                                                         const TableMetadata& metadata) {
  std::vector<std::string> files;
  SnapshotPtr current = metadata.current_snapshot();
  if (!current) return files;
  FLOE_ASSIGN_OR_RETURN(auto list_file, io.NewInputFile(current->manifest_list));
  FLOE_ASSIGN_OR_RETURN(auto manifests, manifest::ReadManifestList(*list_file));
  for (const auto& manifest : manifests) {
    FLOE_ASSIGN_OR_RETURN(auto input, io.NewInputFile(manifest.manifest_path));
    FLOE_ASSIGN_OR_RETURN(auto reader, manifest::ManifestReader::Open(*input, &manifest));
    FLOE_ASSIGN_OR_RETURN(auto entries, reader->ReadAll());
    for (const auto& entry : entries) files.push_back(entry.data_file.file_path);
  }
  return files;
}

// The writer tags of the snapshots from the current one back through its parents; kCorruptData
// when a parent is missing.
inline Result<std::vector<std::string>> ChainWriters(const TableMetadata& metadata) {
  std::vector<std::string> writers;
  SnapshotPtr snapshot = metadata.current_snapshot();
  while (snapshot) {
    auto it = snapshot->summary.find("writer");
    writers.push_back(it == snapshot->summary.end() ? "" : it->second);
    if (!snapshot->parent_snapshot_id) break;
    SnapshotPtr parent = metadata.SnapshotById(*snapshot->parent_snapshot_id);
    if (!parent) return CorruptData("parent {} missing", *snapshot->parent_snapshot_id);
    snapshot = parent;
  }
  return writers;
}

// A create commit as a REST client sends one: assert-create, then the updates that make the
// table from nothing (the simple schema, bucket[4](id), a property); location empty leaves it to
// the catalog.
inline TableCommit CreateCommit(const std::string& location = "") {
  TableCommit commit;
  commit.requirements.push_back(AssertCreate{});
  commit.updates.push_back(UpgradeFormatVersion{2});
  commit.updates.push_back(AddSchema{SimpleSchema(), 2});
  commit.updates.push_back(SetCurrentSchema{kLastAdded});
  commit.updates.push_back(AddPartitionSpec{std::make_shared<PartitionSpec>(
      0, std::vector<PartitionField>{{.source_ids = {1},
                                      .field_id = PartitionSpec::kFirstFieldId,
                                      .name = "id_bucket",
                                      .transform = Transform::Bucket(4)}})});
  commit.updates.push_back(SetDefaultSpec{kLastAdded});
  commit.updates.push_back(AddSortOrder{SortOrder::Unsorted()});
  commit.updates.push_back(SetDefaultSortOrder{kLastAdded});
  if (!location.empty()) commit.updates.push_back(SetLocation{location});
  commit.updates.push_back(SetProperties{{{"created-by", "commit"}}});
  return commit;
}

// A create commit makes the table at expected_location with what the commit said, as the
// metadata file on disk shows; a second create commit fails with kAlreadyExists and changes
// nothing; an ordinary commit then appends to the new table.
inline void ExpectCreateCommitWorks(Catalog& catalog, const TableIdentifier& ident,
                                    const std::string& expected_location) {
  auto created = catalog.CommitTable(ident, CreateCommit());
  ASSERT_TRUE(created) << created.error().ToString();
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr on_disk,
                            ReadTableMetadata(*catalog.file_io(), created->metadata_location));
  EXPECT_EQ(on_disk->location(), expected_location);
  EXPECT_EQ(on_disk->format_version(), 2);
  EXPECT_EQ(on_disk->table_uuid(), created->metadata->table_uuid());
  EXPECT_TRUE(on_disk->current_schema()->SameSchema(*SimpleSchema()));
  EXPECT_EQ(on_disk->current_schema_id(), 0);
  EXPECT_EQ(on_disk->last_column_id(), 2);
  ASSERT_EQ(on_disk->partition_specs().size(), 1u);
  EXPECT_EQ(on_disk->default_spec_id(), 0);
  ASSERT_EQ(on_disk->default_spec()->fields().size(), 1u);
  EXPECT_EQ(on_disk->default_spec()->fields()[0].transform, Transform::Bucket(4));
  EXPECT_EQ(on_disk->last_partition_id(), PartitionSpec::kFirstFieldId);
  EXPECT_TRUE(on_disk->default_sort_order()->is_unsorted());
  EXPECT_EQ(on_disk->property("created-by"), "commit");
  EXPECT_FALSE(on_disk->current_snapshot());

  catalog.Invalidate(ident);
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable loaded, catalog.LoadTable(ident));
  EXPECT_EQ(loaded.metadata_location, created->metadata_location);

  auto again = catalog.CommitTable(ident, CreateCommit());
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind(), ErrorKind::kAlreadyExists) << again.error().ToString();
  EXPECT_FALSE(again.error().retryable());
  catalog.Invalidate(ident);
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable unchanged, catalog.LoadTable(ident));
  EXPECT_EQ(unchanged.metadata_location, created->metadata_location);

  FLOE_ASSERT_OK_AND_ASSIGN(TableCommit append,
                            AppendCommit(*catalog.file_io(), unchanged, "first"));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable appended, catalog.CommitTable(ident, append));
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<std::string> files,
                            CurrentDataFiles(*catalog.file_io(), *appended.metadata));
  EXPECT_EQ(files, (std::vector<std::string>{expected_location + "/data/first.parquet"}));

  // A create commit that asserts more than that the table is missing cannot hold on no table.
  TableIdentifier other{ident.ns, ident.name + "_other"};
  TableCommit guarded = CreateCommit();
  guarded.requirements.push_back(AssertTableUuid{"00000000-0000-0000-0000-000000000000"});
  auto refused = catalog.CommitTable(other, guarded);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind(), ErrorKind::kCommitFailed) << refused.error().ToString();
  TableCommit plain = CreateCommit();
  plain.requirements.clear();
  auto missing = catalog.CommitTable(other, plain);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind(), ErrorKind::kNotFound) << missing.error().ToString();
  EXPECT_FALSE(catalog.TableExists(other).value());
}

}  // namespace floe::catalog::testing
