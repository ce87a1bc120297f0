#include "floe/spec/table_metadata_io.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "floe/io/local_file_io.h"
#include "floe/spec/table_metadata_json.h"
#include "floe/testing/testing.h"

namespace floe {
namespace {

namespace fs = std::filesystem;
using testing::ReadFileOrDie;
using testing::TempDir;
using testing::TestDataDir;

std::string FileNameOf(const std::string& location) { return fs::path(location).filename(); }

Result<std::string> CurrentFileName(io::FileIO& io, const fs::path& table) {
  FLOE_ASSIGN_OR_RETURN(std::string location, FindCurrentMetadataLocation(io, table.string()));
  return FileNameOf(location);
}

TEST(FindCurrentMetadataTest, TestDataTablesFollowTheirHints) {
  io::LocalFileIO io;
  const fs::path duckdb = TestDataDir() / "duckdb-iceberg/data/persistent";
  struct Case {
    std::string table;
    std::string expected;
  };
  const Case cases[] = {
      // Hint "2": the Hadoop name with GZIP's infix.
      {"iceberg/lineitem_iceberg_gz", "v2.gz.metadata.json"},
      // Hint "7" among v3.1 / v4.1 copies, which are not versions.
      {"name_mapping/warehouse_1/mydb/t1", "v7.metadata.json"},
      // Hints that name a file without its ".metadata.json".
      {"legacy_bare_deletion_vector/warehouse/default/legacy_bare_deletion_vector",
       "00002-legacy-bare-dv.metadata.json"},
      {"custom_write_paths", "00000-acdf842e-3a9d-4b9b-ad87-daf785831925.metadata.json"},
      {"expression_filter", "00001-19739cda-f528-4429-84cc-377ffdd24c75.metadata.json"},
      // A timestamp as version.
      {"big_query_error", "v1749025517.metadata.json"},
      // No hint: the highest commit number ("vfinal" is not a version).
      {"equality_delete_extra_column/warehouse/ns/t",
       "00001-55453390-51ec-4023-a1fa-290a9ae468fa.metadata.json"},
      // Nothing numbered: the only metadata file.
      {"equality_delete_cross_partition/warehouse/ns/t", "vfinal.metadata.json"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.table);
    FLOE_ASSERT_OK_AND_ASSIGN(std::string name, CurrentFileName(io, duckdb / c.table));
    EXPECT_EQ(name, c.expected);
  }
  // The metadata folder itself works as well as the table folder.
  FLOE_ASSERT_OK_AND_ASSIGN(std::string name,
                            CurrentFileName(io, duckdb / "iceberg/lineitem_iceberg_gz/metadata"));
  EXPECT_EQ(name, "v2.gz.metadata.json");
}

TEST(FindCurrentMetadataTest, EveryTestDataTableResolvesToAMetadataFile) {
  io::LocalFileIO io;
  int tables = 0;
  for (const auto& entry : fs::recursive_directory_iterator(TestDataDir())) {
    if (!entry.is_directory() || entry.path().filename() != "metadata") continue;
    bool has_metadata = false;
    for (const auto& file : fs::directory_iterator(entry.path())) {
      std::string n = file.path().filename().string();
      has_metadata |= !n.starts_with(".") && n.ends_with(".metadata.json");
    }
    if (!has_metadata) continue;
    SCOPED_TRACE(entry.path().string());
    ++tables;
    FLOE_ASSERT_OK_AND_ASSIGN(std::string location,
                              FindCurrentMetadataLocation(io, entry.path().parent_path().string()));
    EXPECT_TRUE(fs::is_regular_file(location)) << location;
    EXPECT_EQ(fs::path(location).parent_path(), entry.path());
  }
  EXPECT_GT(tables, 60);
}

class MetadataFolderTest : public ::testing::Test {
 protected:
  void Write(const std::string& name, const std::string& content) {
    FLOE_ASSERT_OK(io_.WriteFile((dir_.path() / "metadata" / name).string(), content, true));
  }
  Result<std::string> Current() { return CurrentFileName(io_, dir_.path()); }

  io::LocalFileIO io_;
  TempDir dir_;
};

TEST_F(MetadataFolderTest, VersionsAndHints) {
  FLOE_ASSERT_OK(io_.CreateDirectories((dir_.path() / "metadata").string()));
  auto empty = Current();
  ASSERT_FALSE(empty.has_value());
  EXPECT_EQ(empty.error().kind(), ErrorKind::kNotFound);

  Write("v1.metadata.json", "{}");
  Write("v2.metadata.json", "{}");
  Write("v10.metadata.json", "{}");
  Write(".v10.metadata.json.crc", "");
  Write("00042-5d9111ed-e56c-4ceb-9040-09d3be71926b.metadata.json", "{}");
  // Numbers compare as numbers, and vN names win over commit counters.
  EXPECT_EQ(Current().value_or("?"), "v10.metadata.json");

  // A hint that lags behind (the commit renamed vN+1 in but did not rewrite the hint yet).
  Write("version-hint.text", "1\n");
  EXPECT_EQ(Current().value_or("?"), "v2.metadata.json");
  // A hint naming a missing version, or garbage, falls back to the listing.
  Write("version-hint.text", "5");
  EXPECT_EQ(Current().value_or("?"), "v10.metadata.json");
  Write("version-hint.text", "not a version");
  EXPECT_EQ(Current().value_or("?"), "v10.metadata.json");
  // A file name.
  Write("version-hint.text", "00042-5d9111ed-e56c-4ceb-9040-09d3be71926b");
  EXPECT_EQ(Current().value_or("?"), "00042-5d9111ed-e56c-4ceb-9040-09d3be71926b.metadata.json");

  auto missing = FindCurrentMetadataLocation(io_, (dir_.path() / "nope").string());
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind(), ErrorKind::kNotFound);
}

TEST_F(MetadataFolderTest, WrittenTableReadsBack) {
  FLOE_ASSERT_OK_AND_ASSIGN(
      TableMetadataPtr m,
      TableMetadataFromJsonString(ReadFileOrDie(
          TestDataDir() / "iceberg-java/core/src/test/resources/TableMetadataV2Valid.json")));
  const std::string location = (dir_.path() / "metadata" / "v1.gz.metadata.json").string();
  FLOE_ASSERT_OK(WriteTableMetadata(io_, location, *m));
  FLOE_ASSERT_OK_AND_ASSIGN(std::string found,
                            FindCurrentMetadataLocation(io_, dir_.path().string()));
  EXPECT_EQ(found, location);
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr back, ReadTableMetadata(io_, found));
  EXPECT_EQ(TableMetadataToJson(*back), TableMetadataToJson(*m));
}

}  // namespace
}  // namespace floe
