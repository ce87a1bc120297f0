// `floe sql` on a Glue catalog ('catalog-type'='glue', moto's Glue and S3 on loopback): a table is
// created, appended, upserted, renamed and dropped; after each write ClickHouse's icebergS3 reads
// the rows floe reads from the table's location in the bucket, the aws CLI shows the Glue entry
// as Iceberg's GlueCatalog writes it, and `floe scan --catalog` reads the same table. Skipped
// without moto; the ClickHouse and aws CLI checks without them.

#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "floe/catalog/glue/glue_test_support.h"
#include "floe/cli/run_floe_testing.h"
#include "floe/io/s3/s3_client.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"

namespace floe::cli {
namespace {

using testing::Quote;

class GlueCatalogSqlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    FLOE_REQUIRE_S3_SERVER();
    endpoint_ = floe::testing::S3Server::Get().endpoint();
    client_ = std::make_unique<io::S3Client>(io::TestS3Options());
    FLOE_ASSERT_OK_AND_ASSIGN(bucket_, io::NewTestBucket(*client_, "glue"));
    db_ = catalog::gluetest::UniqueDatabase("sql");
    for (const auto& [key, value] : catalog::gluetest::MotoProperties(endpoint_, bucket_)) {
      with_ += fmt::format(", '{}'='{}'", key, value);
      flags_ += fmt::format(" --catalog {}={}", key, Quote(value));
    }
    catalog_ = fmt::format(
        "CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='glue'{}); USE CATALOG lake; "
        "SET 'execution.runtime-mode' = 'batch'; SET 'sql-client.execution.result-mode' = "
        "'jsonl'; ",
        with_);
  }

  floe::testing::CommandRun Sql(const std::string& statements) {
    return testing::Floe("sql -e " + Quote(catalog_ + statements) + " </dev/null");
  }

  std::set<std::string> FloeRows(const std::string& table) {
    floe::testing::CommandRun run = Sql(fmt::format("SELECT id, data FROM {}.{};", db_, table));
    EXPECT_EQ(run.exit_code, 0) << run.err << run.out;
    return testing::IdDataRows(run.out);
  }

  // The Glue entry of table as the aws CLI reads it (null without the CLI or the entry).
  Json GlueTable(const std::string& table) {
    if (!catalog::gluetest::AwsCliInstalled()) return Json();
    auto shown = catalog::gluetest::AwsGlue(
        endpoint_, fmt::format("get-table --database-name {} --name {}", db_, table));
    if (!shown) return Json();
    const Json* entry = shown->Find("Table");
    return entry == nullptr ? Json() : *entry;
  }

  std::set<std::string> ClickHouseRows(const std::string& location) {
    std::string url = endpoint_ + "/" + location.substr(std::string_view("s3://").size()) + "/";
    auto out = floe::testing::RunPeer(
        "ch", {fmt::format("SELECT id, data FROM icebergS3('{}', 'test-key', 'test-secret') "
                           "FORMAT JSONEachRow",
                           url)});
    EXPECT_TRUE(out.has_value()) << out.error().ToString();
    return out ? testing::IdDataRows(*out) : std::set<std::string>();
  }

  // floe's rows, and ClickHouse's from the location Glue holds for table.
  void ExpectRows(const std::string& table, const std::set<std::string>& expected,
                  std::string_view step) {
    EXPECT_EQ(FloeRows(table), expected) << "floe after " << step;
    if (!floe::testing::PeerInstalled("chdb")) return;
    std::string location = fmt::format("s3://{}/wh/{}.db/t", bucket_, db_);
    EXPECT_EQ(ClickHouseRows(location), expected) << "ClickHouse after " << step;
  }

  floe::testing::TempDir temp_;
  std::string endpoint_;
  std::string bucket_;
  std::string db_;
  std::string with_;
  std::string flags_;
  std::string catalog_;
  std::unique_ptr<io::S3Client> client_;
};

TEST_F(GlueCatalogSqlTest, CreateAppendUpsertRenameDrop) {
  if (!floe::testing::PeerInstalled("chdb")) {
    std::fprintf(stderr, "ClickHouse (chdb) not installed: checking floe's reads only\n");
  }
  floe::testing::CommandRun created = Sql(fmt::format(
      "CREATE DATABASE {0}; CREATE TABLE {0}.t (id BIGINT, data STRING, PRIMARY KEY (id) NOT "
      "ENFORCED) WITH ('format-version'='2'); INSERT INTO {0}.t VALUES (1, 'a'), (2, 'b'), (3, "
      "'c');",
      db_));
  ASSERT_EQ(created.exit_code, 0) << created.err << created.out;
  ExpectRows("t", {"1:a", "2:b", "3:c"}, "append");

  floe::testing::CommandRun upserted = Sql(fmt::format(
      "INSERT INTO {}.t /*+ OPTIONS('upsert-enabled'='true') */ VALUES (2, 'B'), (4, 'd');", db_));
  ASSERT_EQ(upserted.exit_code, 0) << upserted.err << upserted.out;
  ExpectRows("t", {"1:a", "2:B", "3:c", "4:d"}, "upsert");

  // The Glue entry: an Iceberg table whose pointer moved with each commit.
  if (catalog::gluetest::AwsCliInstalled()) {
    Json entry = GlueTable("t");
    ASSERT_TRUE(entry.is_object());
    const Json* parameters = entry.Find("Parameters");
    ASSERT_NE(parameters, nullptr) << entry.Dump();
    EXPECT_EQ(parameters->GetString("table_type").value_or(""), "ICEBERG");
    std::string metadata = parameters->GetString("metadata_location").value_or("");
    std::string previous = parameters->GetString("previous_metadata_location").value_or("");
    std::string folder = fmt::format("s3://{}/wh/{}.db/t/metadata/", bucket_, db_);
    EXPECT_TRUE(metadata.starts_with(folder) && metadata.ends_with(".metadata.json")) << metadata;
    EXPECT_TRUE(previous.starts_with(folder) && previous != metadata) << previous;
    // The file Glue points at is in the bucket.
    FLOE_ASSERT_OK(client_->Head(bucket_, metadata.substr(("s3://" + bucket_ + "/").size())));
    EXPECT_EQ(entry.Find("StorageDescriptor")->GetString("Location").value_or(""),
              fmt::format("s3://{}/wh/{}.db/t", bucket_, db_));
  }

  // Another command, configured by --catalog, reads the same table.
  floe::testing::CommandRun scanned = testing::Floe(
      fmt::format("scan lake.{}.t --columns id --catalog catalog-type=glue{}", db_, flags_));
  ASSERT_EQ(scanned.exit_code, 0) << scanned.err;
  EXPECT_EQ(std::count(scanned.out.begin(), scanned.out.end(), '\n'), 4) << scanned.out;

  floe::testing::CommandRun renamed =
      Sql(fmt::format("ALTER TABLE {0}.t RENAME TO {0}.u; SHOW TABLES FROM {0};", db_));
  ASSERT_EQ(renamed.exit_code, 0) << renamed.err << renamed.out;
  ExpectRows("u", {"1:a", "2:B", "3:c", "4:d"}, "rename");
  if (catalog::gluetest::AwsCliInstalled()) {
    EXPECT_TRUE(GlueTable("t").is_null());
    Json entry = GlueTable("u");
    ASSERT_TRUE(entry.is_object());
    EXPECT_EQ(entry.Find("Parameters")->GetString("table_type").value_or(""), "ICEBERG");
  }

  floe::testing::CommandRun dropped = Sql(fmt::format("DROP TABLE {0}.u; DROP DATABASE {0};", db_));
  ASSERT_EQ(dropped.exit_code, 0) << dropped.err << dropped.out;
  if (catalog::gluetest::AwsCliInstalled()) {
    auto database = catalog::gluetest::AwsGlue(endpoint_, "get-database --name " + db_);
    EXPECT_FALSE(database) << "the database is still in Glue";
  }
  // Dropping purged the table's files (gc.enabled defaults to true).
  FLOE_ASSERT_OK_AND_ASSIGN(io::S3Listing left,
                            client_->List(bucket_, fmt::format("wh/{}.db/t/", db_), ""));
  EXPECT_TRUE(left.objects.empty()) << left.objects.size() << " objects left";
}

TEST_F(GlueCatalogSqlTest, GlueErrorsAreClear) {
  floe::testing::CommandRun upper = Sql("CREATE DATABASE Sales;");
  EXPECT_NE(upper.exit_code, 0);
  EXPECT_NE((upper.err + upper.out).find("is not a Glue name"), std::string::npos)
      << upper.err << upper.out;
  floe::testing::CommandRun missing = Sql(fmt::format("SELECT * FROM {}.none;", db_));
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE((missing.err + missing.out).find("does not exist"), std::string::npos)
      << missing.err << missing.out;
}

}  // namespace
}  // namespace floe::cli
