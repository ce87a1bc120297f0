// Commits over S3 with a fault at every request: a proxy of the test's own (fault_proxy.h) sits
// between `floe append` and moto and, at the n-th request of the append, answers 503 SlowDown,
// drops the connection before forwarding, or forwards and drops the answer. Every request floe
// sends to S3 may be sent twice, so each run must retry to success and add its rows exactly once;
// the table, read past the proxy, stays readable with no file missing. Both catalogs that can
// live on S3 are covered: the SQL catalog (commit in its database) and the hadoop catalog
// (commit by a conditional PUT of vN.metadata.json).

#include <gtest/gtest.h>

#include "floe/cli/run_floe_testing.h"
#include "floe/io/s3/s3_client.h"
#include "floe/io/s3/s3_test_support.h"
#include "floe/testing/fault_proxy.h"
#include "floe/testing/testing.h"

namespace floe::cli {
namespace {

using floe::testing::FaultProxy;
using testing::Quote;

class S3FaultTest : public ::testing::Test {
 protected:
  void SetUp() override {
    FLOE_REQUIRE_S3_SERVER();
    proxy_ = std::make_unique<FaultProxy>(floe::testing::S3Server::Get().endpoint());
    ASSERT_FALSE(proxy_->endpoint().empty());
    client_ = std::make_unique<io::S3Client>(io::TestS3Options());
    FLOE_ASSERT_OK_AND_ASSIGN(bucket_, io::NewTestBucket(*client_, "faults"));
    parquet_ =
        (floe::testing::TestDataDir() / "parquet-testing/data/alltypes_plain.parquet").string();
  }

  // Runs floe with the S3 endpoint given (the proxy's or the server's).
  floe::testing::CommandRun Floe(const std::string& endpoint, const std::string& args) {
    return floe::testing::RunCommand(
        fmt::format("AWS_ENDPOINT_URL={} AWS_ACCESS_KEY_ID=test-key AWS_SECRET_ACCESS_KEY=x "
                    "AWS_REGION=us-east-1 {} {}",
                    endpoint, Quote(FLOE_BINARY), args));
  }

  // The rows of the table, read straight from the server; -1 when the scan fails.
  int64_t Rows(const std::string& table, const std::string& catalog) {
    floe::testing::CommandRun scan = Floe(floe::testing::S3Server::Get().endpoint(),
                                          "scan " + table + catalog + " --columns id");
    EXPECT_EQ(scan.exit_code, 0) << scan.err;
    if (scan.exit_code != 0) return -1;
    return std::count(scan.out.begin(), scan.out.end(), '\n');
  }

  // Appends once cleanly to learn how many requests an append makes, then once with each fault
  // at each of them.
  void AppendWithEveryFault(const std::string& table, const std::string& catalog) {
    std::string append = "append " + table + " " + Quote(parquet_) + catalog;
    floe::testing::CommandRun first = Floe(proxy_->endpoint(), append);
    ASSERT_EQ(first.exit_code, 0) << first.err;
    proxy_->ResetCount();
    floe::testing::CommandRun clean = Floe(proxy_->endpoint(), append);
    ASSERT_EQ(clean.exit_code, 0) << clean.err;
    const int requests = proxy_->requests();
    ASSERT_GT(requests, 3);
    int64_t rows = Rows(table, catalog);
    ASSERT_EQ(rows, 16);
    for (FaultProxy::Fault fault : {FaultProxy::Fault::kSlowDown, FaultProxy::Fault::kDropBefore,
                                    FaultProxy::Fault::kDropAfter}) {
      for (int n = 1; n <= requests; ++n) {
        proxy_->FailRequest(n, fault);
        floe::testing::CommandRun run = Floe(proxy_->endpoint(), append);
        std::vector<std::string> log = proxy_->log();
        std::string at = n <= static_cast<int>(log.size()) ? log[n - 1] : "?";
        ASSERT_EQ(run.exit_code, 0) << "fault " << static_cast<int>(fault) << " at request " << n
                                    << " (" << at << "): " << run.err;
        rows += 8;
        ASSERT_EQ(Rows(table, catalog), rows)
            << "fault " << static_cast<int>(fault) << " at request " << n << " (" << at << ")";
      }
    }
  }

  std::unique_ptr<FaultProxy> proxy_;
  std::unique_ptr<io::S3Client> client_;
  std::string bucket_;
  std::string parquet_;
  floe::testing::TempDir temp_;
};

TEST_F(S3FaultTest, SqlCatalogAppendsExactlyOnceWhateverFails) {
  std::string catalog = fmt::format(
      " --catalog catalog-type=sql --catalog uri=jdbc:sqlite:{} --catalog "
      "warehouse=s3://{}/wh",
      (temp_.path() / "catalog.db").string(), bucket_);
  AppendWithEveryFault("lake.db.events", catalog);
}

TEST_F(S3FaultTest, HadoopCatalogAppendsExactlyOnceWhateverFails) {
  AppendWithEveryFault(Quote(fmt::format("s3://{}/hadoop/db/events", bucket_)), "");
}

}  // namespace
}  // namespace floe::cli
