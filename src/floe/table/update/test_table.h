#pragma once

// Test helpers for the commit operations: a table in a MemoryCatalog over any FileIO (and a
// fixture with two files committed), data and delete file descriptions with the metrics the
// evaluators use, and readers of what a snapshot holds (through manifest/manifest_reader.h,
// independently of the producers).

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "floe/catalog/memory_catalog.h"
#include "floe/io/file_io.h"
#include "floe/io/memory_file_io.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/table/table.h"
#include "floe/table/update/fast_append.h"
#include "floe/testing/testing.h"

namespace floe::table::test {

// id long (1), data string (2), category string (3).
inline SchemaPtr TestSchema() {
  return std::make_shared<Schema>(std::vector<NestedField>{
      types::Required(1, "id", types::Long()), types::Optional(2, "data", types::String()),
      types::Optional(3, "category", types::String())});
}

struct TestTable {
  std::shared_ptr<io::FileIO> io;
  std::shared_ptr<catalog::MemoryCatalog> catalog;
  catalog::TableIdentifier ident{catalog::Namespace{{"db"}}, "t"};
  std::shared_ptr<Table> table;

  // Another Table object on the same catalog table, as a second writer holds it.
  std::shared_ptr<Table> Open() const { return Table::Load(catalog, ident).value(); }
};

// A table partitioned by identity(category) (or not), in format version `format_version`.
inline Result<TestTable> MakeTestTable(std::shared_ptr<io::FileIO> io, bool partitioned,
                                       int format_version = 2, StringMap properties = {},
                                       std::string warehouse = "/warehouse") {
  TestTable t;
  t.io = std::move(io);
  t.catalog = std::make_shared<catalog::MemoryCatalog>("mem", t.io, warehouse);
  FLOE_RETURN_IF_ERROR(t.catalog->CreateNamespace(t.ident.ns, {}));
  catalog::CreateTableRequest request;
  request.schema = TestSchema();
  if (partitioned) {
    request.spec = std::make_shared<PartitionSpec>(
        0, std::vector<PartitionField>{PartitionField{.source_ids = {3},
                                                      .field_id = 1000,
                                                      .name = "category",
                                                      .transform = Transform::Identity()}});
  }
  properties["format-version"] = std::to_string(format_version);
  request.properties = std::move(properties);
  FLOE_RETURN_IF_ERROR(t.catalog->CreateTable(t.ident, request));
  FLOE_ASSIGN_OR_RETURN(t.table, Table::Load(t.catalog, t.ident));
  return t;
}

// A data file of `records` rows whose ids span [min_id, max_id]; partitioned by category when
// given (spec 0 of MakeTestTable), else unpartitioned.
inline manifest::DataFile DataFile(std::string path, int64_t records,
                                   std::optional<std::string> category = std::nullopt,
                                   int64_t min_id = 0, int64_t max_id = 100) {
  manifest::DataFile file;
  file.file_path = std::move(path);
  file.file_format = "parquet";
  file.record_count = records;
  file.file_size_in_bytes = 100 + records;
  if (category) file.partition.push_back(Literal::String(*category));
  file.value_counts = {{1, records}};
  file.null_value_counts = {{1, 0}};
  file.lower_bounds = {{1, Literal::Long(min_id).ToBinary().value()}};
  file.upper_bounds = {{1, Literal::Long(max_id).ToBinary().value()}};
  return file;
}

// A position delete file for rows of data_path.
inline manifest::DataFile PositionDeletes(std::string path, int64_t records, std::string data_path,
                                          std::optional<std::string> category = std::nullopt) {
  manifest::DataFile file;
  file.content = manifest::FileContent::kPositionDeletes;
  file.file_path = std::move(path);
  file.file_format = "parquet";
  file.record_count = records;
  file.file_size_in_bytes = 50 + records;
  if (category) file.partition.push_back(Literal::String(*category));
  file.referenced_data_file = std::move(data_path);
  return file;
}

inline std::vector<manifest::ManifestFile> ManifestsOf(io::FileIO& io, const Snapshot& snapshot) {
  auto input = io.NewInputFile(snapshot.manifest_list).value();
  return manifest::ReadManifestList(*input).value();
}

// Every entry of the snapshot's manifests, inherited values filled in.
inline std::vector<manifest::ManifestEntry> EntriesOf(io::FileIO& io, const Snapshot& snapshot) {
  std::vector<manifest::ManifestEntry> out;
  for (const manifest::ManifestFile& manifest : ManifestsOf(io, snapshot)) {
    auto input = io.NewInputFile(manifest.manifest_path).value();
    auto reader = manifest::ManifestReader::Open(*input, &manifest).value();
    std::vector<manifest::ManifestEntry> entries = reader->ReadAll().value();
    for (auto& entry : entries) out.push_back(std::move(entry));
  }
  return out;
}

// Paths of the live (ADDED or EXISTING) files of the table's current snapshot.
inline std::set<std::string> LiveFiles(const Table& table) {
  std::set<std::string> out;
  SnapshotPtr snapshot = table.metadata()->current_snapshot();
  if (!snapshot) return out;
  for (const auto& entry : EntriesOf(*table.io(), *snapshot)) {
    if (entry.status != manifest::EntryStatus::kDeleted) out.insert(entry.data_file.file_path);
  }
  return out;
}

// A partitioned table in memory with two committed data files, /d/a1.parquet (10 rows,
// category a) and /d/b1.parquet (20 rows, category b); start_ is that snapshot.
class TwoFileTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto t = MakeTestTable(std::make_shared<io::MemoryFileIO>(), /*partitioned=*/true);
    ASSERT_TRUE(t) << t.error().ToString();
    t_ = std::move(*t);
    FLOE_ASSERT_OK(t_.table->NewFastAppend()
                       ->AppendFile(DataFile("/d/a1.parquet", 10, "a"))
                       .AppendFile(DataFile("/d/b1.parquet", 20, "b"))
                       .Commit());
    start_ = *t_.table->metadata()->current_snapshot_id();
  }

  TestTable t_;
  int64_t start_ = 0;
};

}  // namespace floe::table::test
