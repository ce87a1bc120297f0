// A SQL catalog whose warehouse is an S3 bucket (moto on loopback), driven through `floe sql` as a
// newcomer would: the table is created, appended, upserted, overwritten, compacted and expired,
// and after every step ClickHouse's icebergS3 reads the same rows straight from the bucket as
// floe does. Path commands (scan, inspect, cat) read the same table by its s3:// location.
// Skipped without moto or ClickHouse.

#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "floe/cli/run_floe_testing.h"
#include "floe/io/s3/s3_client.h"
#include "floe/io/s3/s3_test_support.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"

namespace floe::cli {
namespace {

using testing::Quote;

class S3WarehouseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    FLOE_REQUIRE_S3_SERVER();
    endpoint_ = floe::testing::S3Server::Get().endpoint();
    client_ = std::make_unique<io::S3Client>(io::TestS3Options());
    FLOE_ASSERT_OK_AND_ASSIGN(bucket_, io::NewTestBucket(*client_, "lake"));
    catalog_ = fmt::format(
        "CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='sql', "
        "'uri'='jdbc:sqlite:{}', 'warehouse'='s3://{}/wh', 's3.endpoint'='{}', "
        "'s3.access-key-id'='test-key', 's3.secret-access-key'='test-secret'); "
        "USE CATALOG lake; SET 'execution.runtime-mode' = 'batch'; "
        "SET 'sql-client.execution.result-mode' = 'jsonl'; ",
        (temp_.path() / "catalog.db").string(), bucket_, endpoint_);
  }

  floe::testing::CommandRun Sql(const std::string& statements) {
    return testing::Floe("sql -e " + Quote(catalog_ + statements) + " </dev/null");
  }

  // "id:data" of every row, as floe reads them.
  std::set<std::string> FloeRows() {
    floe::testing::CommandRun run = Sql("SELECT id, data FROM db.t;");
    EXPECT_EQ(run.exit_code, 0) << run.err << run.out;
    return testing::IdDataRows(run.out);
  }

  std::set<std::string> ClickHouseRows() {
    auto out = floe::testing::RunPeer(
        "ch", {fmt::format("SELECT id, data FROM icebergS3('{}/{}/wh/db/t/', 'test-key', "
                           "'test-secret') FORMAT JSONEachRow",
                           endpoint_, bucket_)});
    EXPECT_TRUE(out.has_value()) << out.error().ToString();
    return out ? testing::IdDataRows(*out) : std::set<std::string>();
  }

  void ExpectRows(const std::set<std::string>& expected, std::string_view step) {
    EXPECT_EQ(FloeRows(), expected) << "floe after " << step;
    if (floe::testing::PeerInstalled("chdb")) {
      EXPECT_EQ(ClickHouseRows(), expected) << "ClickHouse after " << step;
    }
  }

  floe::testing::TempDir temp_;
  std::string endpoint_;
  std::string bucket_;
  std::string catalog_;
  std::unique_ptr<io::S3Client> client_;
};

TEST_F(S3WarehouseTest, EveryWriteReadsTheSameInClickHouse) {
  if (!floe::testing::PeerInstalled("chdb")) {
    std::fprintf(stderr, "ClickHouse (chdb) not installed: checking floe's reads only\n");
  }
  floe::testing::CommandRun created =
      Sql("CREATE DATABASE db; CREATE TABLE db.t (id BIGINT, data STRING, PRIMARY KEY (id) NOT "
          "ENFORCED) WITH ('format-version'='2'); INSERT INTO db.t VALUES (1, 'a'), (2, 'b'), (3, "
          "'c');");
  ASSERT_EQ(created.exit_code, 0) << created.err << created.out;
  ExpectRows({"1:a", "2:b", "3:c"}, "append");

  floe::testing::CommandRun upserted =
      Sql("INSERT INTO db.t /*+ OPTIONS('upsert-enabled'='true') */ VALUES (2, 'B'), (4, 'd');");
  ASSERT_EQ(upserted.exit_code, 0) << upserted.err << upserted.out;
  ExpectRows({"1:a", "2:B", "3:c", "4:d"}, "upsert");

  floe::testing::CommandRun overwritten =
      Sql("INSERT OVERWRITE db.t VALUES (5, 'e'), (6, 'f'); INSERT INTO db.t VALUES (7, 'g');");
  ASSERT_EQ(overwritten.exit_code, 0) << overwritten.err << overwritten.out;
  ExpectRows({"5:e", "6:f", "7:g"}, "overwrite");

  floe::testing::CommandRun compacted =
      Sql("CALL system.rewrite_data_files(table => 'db.t', options => map('min-input-files', "
          "'2'));");
  ASSERT_EQ(compacted.exit_code, 0) << compacted.err << compacted.out;
  ExpectRows({"5:e", "6:f", "7:g"}, "compaction");

  floe::testing::CommandRun expired =
      Sql("CALL system.expire_snapshots(table => 'db.t', older_than => TIMESTAMP '2999-01-01 "
          "00:00:00', retain_last => 1);");
  ASSERT_EQ(expired.exit_code, 0) << expired.err << expired.out;
  ExpectRows({"5:e", "6:f", "7:g"}, "expiry");
  // Expiry deleted the files only old snapshots referenced: one data file is left.
  FLOE_ASSERT_OK_AND_ASSIGN(io::S3Listing data, client_->List(bucket_, "wh/db/t/data/", ""));
  EXPECT_EQ(data.objects.size(), 1u);

  // The secret appears nowhere in what floe printed or in the table's metadata.
  floe::testing::CommandRun shown = Sql("SHOW CREATE TABLE db.t; SET;");
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_EQ(shown.out.find("test-secret"), std::string::npos) << shown.out;
  FLOE_ASSERT_OK_AND_ASSIGN(io::S3Listing metadata,
                            client_->List(bucket_, "wh/db/t/metadata/", ""));
  for (const io::S3Listing::Object& object : metadata.objects) {
    FLOE_ASSERT_OK_AND_ASSIGN(std::string bytes, client_->Get(bucket_, object.key));
    EXPECT_EQ(bytes.find("test-secret"), std::string::npos) << object.key;
  }
}

// An Iceberg table ClickHouse writes in the bucket (its IcebergS3 engine) reads in floe by
// location, rows and schema as ClickHouse wrote them.
TEST_F(S3WarehouseTest, ReadsATableClickHouseWroteOnS3) {
  if (!floe::testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) not installed";
  std::string location = fmt::format("{}/{}/clickhouse/t/", endpoint_, bucket_);
  auto written = floe::testing::RunPeer(
      "ch", {fmt::format("CREATE TABLE t (id Int64, data String) ENGINE = IcebergS3('{}', "
                         "'test-key', 'test-secret'); "
                         "INSERT INTO t SETTINGS allow_experimental_insert_into_iceberg = 1 "
                         "VALUES (1, 'a'), (2, 'b'), (3, 'c'); "
                         "INSERT INTO t SETTINGS allow_experimental_insert_into_iceberg = 1 "
                         "VALUES (4, 'd'); SELECT count() AS n FROM t",
                         location)});
  ASSERT_TRUE(written.has_value()) << written.error().ToString();
  ASSERT_NE(written->find("\"n\":4"), std::string::npos) << *written;

  floe::testing::CommandRun scanned = floe::testing::RunCommand(fmt::format(
      "AWS_ENDPOINT_URL={} AWS_ACCESS_KEY_ID=test-key AWS_SECRET_ACCESS_KEY=test-secret "
      "AWS_REGION=us-east-1 {} scan {}",
      endpoint_, Quote(FLOE_BINARY), Quote(fmt::format("s3://{}/clickhouse/t", bucket_))));
  ASSERT_EQ(scanned.exit_code, 0) << scanned.err;
  EXPECT_EQ(testing::IdDataRows(scanned.out), (std::set<std::string>{"1:a", "2:b", "3:c", "4:d"}))
      << scanned.out;
}

TEST_F(S3WarehouseTest, PathCommandsOnS3Locations) {
  std::string env = fmt::format(
      "AWS_ENDPOINT_URL={} AWS_ACCESS_KEY_ID=test-key AWS_SECRET_ACCESS_KEY=test-secret "
      "AWS_REGION=us-east-1 ",
      endpoint_);
  std::string table = fmt::format("s3://{}/hadoop/db/events", bucket_);
  std::string parquet =
      (floe::testing::TestDataDir() / "parquet-testing/data/alltypes_plain.parquet").string();
  auto floe = [&](const std::string& args) {
    return floe::testing::RunCommand(env + Quote(FLOE_BINARY) + " " + args);
  };
  floe::testing::CommandRun appended = floe("append " + Quote(table) + " " + Quote(parquet));
  ASSERT_EQ(appended.exit_code, 0) << appended.err;
  floe::testing::CommandRun scanned = floe("scan " + Quote(table) + " --columns id --limit 100");
  ASSERT_EQ(scanned.exit_code, 0) << scanned.err;
  EXPECT_EQ(std::count(scanned.out.begin(), scanned.out.end(), '\n'), 8) << scanned.out;
  floe::testing::CommandRun inspected = floe("inspect table " + Quote(table));
  EXPECT_EQ(inspected.exit_code, 0) << inspected.err;

  // convert writes to S3 and cat reads from it.
  std::string converted = fmt::format("s3://{}/files/copy.parquet", bucket_);
  floe::testing::CommandRun convert = floe("convert " + Quote(parquet) + " " + Quote(converted));
  ASSERT_EQ(convert.exit_code, 0) << convert.err;
  floe::testing::CommandRun cat = floe("cat " + Quote(converted));
  ASSERT_EQ(cat.exit_code, 0) << cat.err;
  EXPECT_EQ(std::count(cat.out.begin(), cat.out.end(), '\n'), 8) << cat.out;

  // The filesystem connector reads it there too, with the environment's settings (the file's 8
  // ids are 0..7, as DuckDB reads them from the original).
  floe::testing::CommandRun selected =
      floe("sql -e " +
           Quote(fmt::format("SET 'sql-client.execution.result-mode' = 'jsonl'; "
                             "CREATE TABLE default_catalog.default_database.f (id INT) WITH "
                             "('connector'='filesystem', 'path'='{}', "
                             "'format'='parquet'); SELECT count(*) AS n, sum(id) AS s FROM "
                             "default_catalog.default_database.f;",
                             converted)) +
           " </dev/null");
  ASSERT_EQ(selected.exit_code, 0) << selected.err;
  EXPECT_NE(selected.out.find(R"("n":8,"s":28})"), std::string::npos) << selected.out;

  // A missing object: one line naming the operation, the object and the store's code; exit 2.
  floe::testing::CommandRun missing =
      floe("cat " + Quote(fmt::format("s3://{}/files/none.avro", bucket_)));
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("NoSuchKey"), std::string::npos) << missing.err;
  floe::testing::CommandRun hdfs = floe("scan hdfs://namenode/wh/db/t");
  EXPECT_EQ(hdfs.exit_code, 2);
  EXPECT_NE(hdfs.err.find("scheme 'hdfs'"), std::string::npos) << hdfs.err;
}

}  // namespace
}  // namespace floe::cli
