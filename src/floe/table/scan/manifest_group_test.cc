#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "floe/expr/evaluator.h"
#include "floe/expr/manifest_evaluator.h"
#include "floe/expr/metrics_evaluator.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/table/scan/manifest_group_internal.h"
#include "floe/table/scan/scan_test_table.h"
#include "floe/table/scan/table_scan.h"
#include "floe/util/thread_pool.h"

namespace floe::table {
namespace {

using manifest::DataFile;
using manifest::EntryStatus;
using manifest::ManifestContent;
using manifest::ManifestEntry;
using testing::ScanTestTable;

// Deterministic pseudo-random numbers, so that a failure can be replayed.
class Lcg {
 public:
  int64_t Next(int64_t bound) {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((state_ >> 33) % static_cast<uint64_t>(bound));
  }

 private:
  uint64_t state_ = 42;
};

// A file with statistics of every shape the evaluators distinguish: bounds present or absent,
// all-null columns, string and timestamp bounds, NaN-free counts.
DataFile RandomFile(Lcg& rng, int n, std::vector<Literal> partition) {
  DataFile f;
  f.file_path = "data/f" + std::to_string(n) + ".parquet";
  f.file_format = "parquet";
  f.partition = std::move(partition);
  f.record_count = 1 + rng.Next(1000);
  f.file_size_in_bytes = 1000 + rng.Next(100000);
  f.split_offsets = {4, 4 + rng.Next(500)};
  int64_t lo = rng.Next(1000);
  int64_t hi = lo + rng.Next(100);
  f.column_sizes = {{1, 10 + rng.Next(90)}, {2, 10}, {3, 10}};
  f.value_counts = {{1, f.record_count}, {2, f.record_count}, {3, f.record_count}};
  int64_t region_nulls = rng.Next(3) == 0 ? f.record_count : rng.Next(2);
  f.null_value_counts = {{1, 0}, {2, region_nulls}, {3, 0}};
  if (rng.Next(5) != 0) {  // one file in five has no id bounds
    f.lower_bounds.emplace_back(1, *Literal::Long(lo).ToBinary());
    f.upper_bounds.emplace_back(1, *Literal::Long(hi).ToBinary());
  }
  if (region_nulls < f.record_count) {
    static const char* kRegions[] = {"ap", "eu", "us"};
    std::string a = kRegions[rng.Next(3)];
    std::string b = kRegions[rng.Next(3)];
    f.lower_bounds.emplace_back(2, std::min(a, b));
    f.upper_bounds.emplace_back(2, std::max(a, b));
  }
  int64_t ts = 1'700'000'000'000'000 + rng.Next(100) * 3'600'000'000;
  f.lower_bounds.emplace_back(3, *Literal::Timestamp(ts).ToBinary());
  f.upper_bounds.emplace_back(3, *Literal::Timestamp(ts + 3'599'999'999).ToBinary());
  return f;
}

expr::DataFileMetrics AllMetrics(const DataFile& f) {
  expr::DataFileMetrics m;
  m.record_count = f.record_count;
  for (const auto& [id, v] : f.value_counts) m.value_counts[id] = v;
  for (const auto& [id, v] : f.null_value_counts) m.null_value_counts[id] = v;
  for (const auto& [id, v] : f.nan_value_counts) m.nan_value_counts[id] = v;
  for (const auto& [id, v] : f.lower_bounds) m.lower_bounds[id] = v;
  for (const auto& [id, v] : f.upper_bounds) m.upper_bounds[id] = v;
  return m;
}

class PlanEquivalenceTest : public ::testing::Test {
 protected:
  // Six manifests, alternately unpartitioned and partitioned by region, of 60 files each; one
  // entry in seven is DELETED.
  void SetUp() override {
    Lcg rng;
    std::vector<manifest::ManifestFile> manifests;
    int n = 0;
    for (int m = 0; m < 6; ++m) {
      int spec = m % 2;
      std::vector<ManifestEntry> entries;
      for (int i = 0; i < 60; ++i, ++n) {
        std::vector<Literal> partition;
        if (spec == 1) {
          int64_t r = rng.Next(4);
          partition.push_back(r == 3 ? Literal::Null(types::String())
                                     : Literal::String(r == 0   ? "ap"
                                                       : r == 1 ? "eu"
                                                                : "us"));
        }
        DataFile f = RandomFile(rng, n, std::move(partition));
        entries.push_back(n % 7 == 3
                              ? ScanTestTable::WithStatus(std::move(f), EntryStatus::kDeleted, 1, 1)
                              : ScanTestTable::Added(std::move(f), 1));
      }
      manifests.push_back(t_.Manifest(spec, ManifestContent::kData, 1, entries));
    }
    metadata_ = t_.Commit(1, "append", manifests, 1000);
    manifests_ = manifests;
  }

  // What planning must give, computed entry by entry from every entry's full statistics.
  std::vector<DataFile> Expected(const expr::ExprPtr& unbound, bool with_stats) {
    expr::ExprPtr filter = unbound ? *expr::Bind(unbound, *t_.schema()) : expr::True();
    expr::InclusiveMetricsEvaluator metrics(filter);
    std::vector<DataFile> out;
    for (const manifest::ManifestFile& m : manifests_) {
      auto evaluator =
          expr::ManifestEvaluator::Make(filter, *t_.schema(), *t_.spec(m.partition_spec_id));
      EXPECT_TRUE(evaluator.has_value());
      auto reader = manifest::ManifestReader::Open(**t_.io().NewInputFile(m.manifest_path), &m);
      EXPECT_TRUE(reader.has_value());
      auto entries = (*reader)->ReadAll();
      EXPECT_TRUE(entries.has_value());
      for (ManifestEntry& e : *entries) {
        if (e.status == EntryStatus::kDeleted) continue;
        DataFile& f = e.data_file;
        bool partition_ok =
            expr::Evaluate(*evaluator->partition_filter(), [&](int32_t id) -> const Literal* {
              return id == 1000 && !f.partition.empty() ? &f.partition[0] : nullptr;
            });
        auto metrics_ok = metrics.MightMatch(AllMetrics(f));
        EXPECT_TRUE(metrics_ok.has_value());
        if (!partition_ok || !*metrics_ok) continue;
        if (!with_stats) {
          f.column_sizes.clear();
          f.value_counts.clear();
          f.null_value_counts.clear();
          f.nan_value_counts.clear();
          f.lower_bounds.clear();
          f.upper_bounds.clear();
        }
        out.push_back(std::move(f));
      }
    }
    return out;
  }

  std::vector<DataFile> Planned(const expr::ExprPtr& filter, bool with_stats, ThreadPool* pool) {
    TableScan scan(metadata_, t_.shared_io());
    if (filter) scan.Filter(filter);
    if (with_stats) scan.IncludeColumnStats();
    if (pool) scan.WithThreadPool(pool);
    std::vector<DataFile> out;
    auto planned = scan.PlanFiles();
    EXPECT_TRUE(planned.has_value()) << planned.error().ToString();
    if (!planned) return out;
    for (const FileScanTask& task : *planned) {
      EXPECT_TRUE(task.whole_file());
      EXPECT_EQ(task.spec->spec_id(), task.data_file->spec_id);
      out.push_back(*task.data_file);
    }
    return out;
  }

  ScanTestTable t_;
  TableMetadataPtr metadata_;
  std::vector<manifest::ManifestFile> manifests_;
};

// Planning decodes the statistics of the filter's columns only and keeps the planned files of a
// manifest together; neither may change which files are planned or what they hold.
TEST_F(PlanEquivalenceTest, PlansEqualAnEntryByEntryEvaluationOfFullStatistics) {
  const int64_t ts = 1'700'000'000'000'000 + 50 * int64_t{3'600'000'000};
  const std::vector<expr::ExprPtr> filters = {
      nullptr,
      expr::LessThan("id", Literal::Long(200)),
      expr::Equal("id", Literal::Long(517)),
      expr::And(expr::GreaterThanOrEqual("id", Literal::Long(300)),
                expr::LessThan("id", Literal::Long(320))),
      expr::Equal("region", Literal::String("eu")),
      expr::IsNull("region"),
      expr::NotNull("region"),
      expr::Or(expr::Equal("region", Literal::String("ap")),
               expr::GreaterThan("id", Literal::Long(900))),
      expr::And(expr::GreaterThanOrEqual("ts", Literal::Timestamp(ts)),
                expr::LessThan("ts", Literal::Timestamp(ts + 3'600'000'000))),
      expr::Not(expr::Equal("region", Literal::String("us"))),
  };
  ThreadPool pool(3);
  for (size_t i = 0; i < filters.size(); ++i) {
    for (bool with_stats : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "filter " << i << ", statistics " << with_stats);
      std::vector<DataFile> expected = Expected(filters[i], with_stats);
      EXPECT_EQ(Planned(filters[i], with_stats, nullptr), expected);
      EXPECT_EQ(Planned(filters[i], with_stats, &pool), expected);
    }
  }
  // The filters above prune some files but not all.
  EXPECT_LT(Expected(filters[1], false).size(), Expected(nullptr, false).size());
  EXPECT_FALSE(Expected(filters[3], false).empty());
}

// Tasks share their manifest's files: they stay valid after the scan and the other tasks go.
TEST_F(PlanEquivalenceTest, TasksOutliveTheScanAndEachOther) {
  FileScanTask kept;
  {
    TableScan scan(metadata_, t_.shared_io());
    FLOE_ASSERT_OK_AND_ASSIGN(auto tasks, scan.PlanFiles());
    ASSERT_FALSE(tasks.empty());
    kept = tasks[tasks.size() / 2];
  }
  std::vector<DataFile> expected = Expected(nullptr, false);
  bool found = false;
  for (const DataFile& f : expected) found = found || f == *kept.data_file;
  EXPECT_TRUE(found) << kept.data_file->file_path;
}

}  // namespace
}  // namespace floe::table
