#include "floe/catalog/caching_catalog.h"

#include <gtest/gtest.h>

#include "floe/catalog/hadoop/hadoop_catalog.h"
#include "floe/catalog/test_commits.h"
#include "floe/testing/testing.h"

namespace floe::catalog {
namespace {

const TableIdentifier kTable{{{"db"}}, "t"};

// A hadoop warehouse seen through a cache and, as another process would see it, directly.
struct Cached {
  floe::testing::TempDir dir;
  std::shared_ptr<HadoopCatalog> direct;
  std::shared_ptr<CachingCatalog> cached;
  int64_t now = 1000;

  explicit Cached(int64_t expiration_ms) {
    direct = *HadoopCatalog::Make("h", {{"warehouse", dir.path().string()}});
    auto inner = *HadoopCatalog::Make("h", {{"warehouse", dir.path().string()}});
    cached = *CachingCatalog::Make(inner, expiration_ms, [this] { return now; });
    CreateTableRequest request;
    request.schema = testing::SimpleSchema();
    EXPECT_TRUE(direct->CreateTable(kTable, request).has_value());
  }

  std::string CachedLocation() { return cached->LoadTable(kTable)->metadata_location; }
  std::string DirectLocation() { return direct->LoadTable(kTable)->metadata_location; }
  void CommitElsewhere(const std::string& tag) {
    EXPECT_TRUE(testing::AppendWithRetry(*direct, kTable, tag).has_value());
  }
};

TEST(CachingCatalogTest, ServesCachedTableUntilUnusedForTheInterval) {
  Cached c(/*expiration_ms=*/100);
  std::string first = c.CachedLocation();
  c.CommitElsewhere("a");
  EXPECT_EQ(c.CachedLocation(), first);  // cached
  c.now += 99;
  EXPECT_EQ(c.CachedLocation(), first);  // used again: its clock restarts
  c.now += 99;
  EXPECT_EQ(c.CachedLocation(), first);
  c.now += 100;
  EXPECT_EQ(c.CachedLocation(), c.DirectLocation());  // expired, reloaded
  EXPECT_NE(c.CachedLocation(), first);
}

TEST(CachingCatalogTest, NegativeIntervalNeverExpiresButInvalidateReloads) {
  Cached c(kCacheNeverExpires);
  std::string first = c.CachedLocation();
  c.CommitElsewhere("a");
  c.now += int64_t{1} << 40;
  EXPECT_EQ(c.CachedLocation(), first);
  c.cached->Invalidate(kTable);
  EXPECT_EQ(c.CachedLocation(), c.DirectLocation());
}

TEST(CachingCatalogTest, OwnCommitsRefreshAndDropsForget) {
  Cached c(kCacheNeverExpires);
  c.CachedLocation();
  FLOE_ASSERT_OK(testing::AppendWithRetry(*c.cached, kTable, "mine"));
  EXPECT_EQ(c.CachedLocation(), c.DirectLocation());

  // A commit that lost against another process forgets the stale entry.
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable stale, c.cached->LoadTable(kTable));
  c.CommitElsewhere("theirs");
  FLOE_ASSERT_OK_AND_ASSIGN(TableCommit commit,
                            testing::AppendCommit(*c.cached->file_io(), stale, "late"));
  EXPECT_EQ(c.cached->CommitTable(kTable, commit).error().kind(), ErrorKind::kCommitFailed);
  EXPECT_EQ(c.CachedLocation(), c.DirectLocation());

  FLOE_ASSERT_OK(c.cached->DropTable(kTable, false));
  EXPECT_EQ(c.cached->LoadTable(kTable).error().kind(), ErrorKind::kNotFound);
}

TEST(CachingCatalogTest, CreateCommitGoesThroughAndIsRemembered) {
  Cached c(kCacheNeverExpires);
  TableIdentifier ident{kTable.ns, "created"};
  testing::ExpectCreateCommitWorks(*c.cached, ident, c.dir.path().string() + "/db/created");
  EXPECT_EQ(c.cached->LoadTable(ident)->metadata_location,
            c.direct->LoadTable(ident)->metadata_location);
}

TEST(CachingCatalogTest, WrapReadsTheConnectorProperties) {
  floe::testing::TempDir dir;
  std::shared_ptr<Catalog> inner = *HadoopCatalog::Make("h", {{"warehouse", dir.path().string()}});
  FLOE_ASSERT_OK_AND_ASSIGN(auto wrapped, CachingCatalog::Wrap(inner, {}));
  EXPECT_NE(dynamic_cast<CachingCatalog*>(wrapped.get()), nullptr);  // on by default
  FLOE_ASSERT_OK_AND_ASSIGN(auto off, CachingCatalog::Wrap(inner, {{"cache-enabled", "false"}}));
  EXPECT_EQ(off, inner);
  EXPECT_EQ(CachingCatalog::Wrap(inner, {{"cache.expiration-interval-ms", "0"}}).error().kind(),
            ErrorKind::kInvalidArgument);
  EXPECT_FALSE(CachingCatalog::Wrap(inner, {{"cache.expiration-interval-ms", "soon"}}));
  EXPECT_FALSE(CachingCatalog::Wrap(inner, {{"cache-enabled", "yes"}}));
  FLOE_ASSERT_OK(CachingCatalog::Wrap(inner, {{"cache.expiration-interval-ms", "-1"}}));
}

}  // namespace
}  // namespace floe::catalog
