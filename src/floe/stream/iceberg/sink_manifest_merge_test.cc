// A long streaming job through the sink's commit path keeps few manifests: the committer merges
// them as Iceberg's default append does, and the old metadata files go when the table asks.

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "floe/manifest/manifest_reader.h"
#include "floe/stream/iceberg/sink_test_support.h"

namespace floe::stream {
namespace {

using test::Batch;
using test::Row;
using test::Sorted;

class SinkManifestMergeTest : public test::SinkFixture {
 protected:
  size_t ManifestCount(const SnapshotPtr& snapshot) const {
    auto input = Table()->io()->NewInputFile(snapshot->manifest_list);
    EXPECT_TRUE(input.has_value());
    if (!input) return 0;
    auto manifests = manifest::ReadManifestList(**input);
    EXPECT_TRUE(manifests.has_value()) << manifests.error().ToString();
    return manifests ? manifests->size() : 0;
  }

  size_t MetadataJsonFiles() const {
    size_t n = 0;
    for (const auto& entry : std::filesystem::directory_iterator(location() + "/metadata")) {
      n += entry.path().string().ends_with(".metadata.json");
    }
    return n;
  }
};

TEST_F(SinkManifestMergeTest, ThousandCheckpointsKeepAtMostMinCountManifests) {
  constexpr int64_t kCheckpoints = 1000;
  constexpr size_t kMinCountToMerge = 100;  // Iceberg's default, not set on the table
  CreateTable("", 2,
              {{"write.metadata.delete-after-commit.enabled", "true"},
               {"write.metadata.previous-versions-max", "5"}});
  SinkSpec spec = Spec();
  auto writers = Writers(spec, 1);
  auto committer = Committer(spec);
  std::vector<Row> expected;
  size_t most_manifests = 0;
  std::vector<double> commit_ms;
  for (int64_t checkpoint = 1; checkpoint <= kCheckpoints; ++checkpoint) {
    std::vector<Row> rows;
    for (int i = 0; i < 3; ++i) {
      int64_t id = checkpoint * 10 + i;
      rows.push_back({id, fmt::format("v{}", id), checkpoint % 2 == 0 ? "even" : "odd"});
    }
    FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch(rows)));
    expected.insert(expected.end(), rows.begin(), rows.end());
    Checkpoint(writers, *committer, checkpoint);
    const auto start = std::chrono::steady_clock::now();
    FLOE_ASSERT_OK(committer->NotifyCheckpointComplete(checkpoint));
    commit_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
    SnapshotPtr current = Table()->metadata()->current_snapshot();
    ASSERT_NE(current, nullptr);
    size_t manifests = ManifestCount(current);
    ASSERT_LE(manifests, kMinCountToMerge) << "at checkpoint " << checkpoint;
    most_manifests = std::max(most_manifests, manifests);
  }
  // Merging happened (a fast append would hold 1,000), and happened only at the minimum count.
  EXPECT_EQ(most_manifests, kMinCountToMerge - 1);
  EXPECT_EQ(Snapshots().size(), static_cast<size_t>(kCheckpoints));
  EXPECT_EQ(ReadTable(), Sorted(expected));
  // previous-versions-max 5: the current file and the five the log names.
  EXPECT_EQ(MetadataJsonFiles(), 6u);
  auto mean = [&](int64_t from, int64_t to) {
    double sum = 0;
    for (int64_t i = from; i <= to; ++i) sum += commit_ms[i - 1];
    return sum / static_cast<double>(to - from + 1);
  };
  std::printf("commit time, mean of checkpoints 91-100: %.2f ms, 991-1000: %.2f ms\n",
              mean(91, 100), mean(991, 1000));

  if (!floe::testing::PeerInstalled("chdb")) {
    GTEST_SKIP() << "ClickHouse (chdb) not installed: its read of the table is not checked";
  }
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<Row> theirs, test::ReadByClickHouse(location()));
  EXPECT_EQ(theirs, Sorted(expected));
}

}  // namespace
}  // namespace floe::stream
