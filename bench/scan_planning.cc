// Scan planning of a large table: 1,000,000 data files in 1,000 manifests (one day partition per
// manifest, statistics and bounds for 10 columns), planned end to end from the manifest list
// (read, decode, prune, build tasks) on one thread and on every core, without a filter, with a
// partition filter (one day: manifests pruned by their summaries) and with a metrics-only filter
// (an id range: every manifest read, all but a few files pruned by column bounds), and without a
// filter but with every column's statistics decoded and kept in the tasks (IncludeColumnStats).
//
// The table is written once with floe's manifest writers into $TMPDIR/floe-bench-scan-planning
// and reused by later runs (delete the folder to rebuild it).

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "floe/io/local_file_io.h"
#include "floe/manifest/manifest_writer.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/sort_order.h"
#include "floe/spec/table_metadata.h"
#include "floe/table/scan/table_scan.h"
#include "floe/util/thread_pool.h"

namespace floe::table {
namespace {

namespace fs = std::filesystem;

constexpr int kManifests = 1000;
constexpr int kFilesPerManifest = 1000;
constexpr int kColumns = 10;
constexpr int32_t kFirstDay = 20000;
constexpr int64_t kSnapshotId = 1;

SchemaPtr BenchSchema() {
  std::vector<NestedField> fields;
  for (int c = 1; c <= kColumns; ++c) {
    TypeId id = c % 3 == 0 ? TypeId::kString : (c % 3 == 1 ? TypeId::kLong : TypeId::kInt);
    if (c == 2) id = TypeId::kTimestamp;
    fields.push_back({.id = c, .name = fmt::format("c{}", c), .type = PrimitiveType::Get(id)});
  }
  return *Schema::Make(fields);
}

void Check(const Status& s) {
  if (!s) {
    std::fprintf(stderr, "%s\n", s.error().ToString().c_str());
    std::abort();
  }
}

// Writes the manifests and the manifest list unless a previous run did.
std::string BuildTable(const Schema& schema, const PartitionSpec& spec) {
  fs::path dir = fs::temp_directory_path() / "floe-bench-scan-planning";
  std::string list = (dir / "snap-1.avro").string();
  if (fs::exists(list)) return list;
  fs::create_directories(dir);
  io::LocalFileIO io;
  manifest::ManifestListWriterOptions list_options;
  list_options.snapshot_id = kSnapshotId;
  list_options.sequence_number = 1;
  std::string partial = list + ".partial";
  auto list_file = *io.NewOutputFile(partial);
  auto list_writer = *manifest::ManifestListWriter::Open(*list_file, list_options);
  for (int m = 0; m < kManifests; ++m) {
    manifest::ManifestWriterOptions options;
    options.snapshot_id = kSnapshotId;
    auto out = *io.NewOutputFile((dir / ("m" + std::to_string(m) + ".avro")).string());
    auto writer = *manifest::ManifestWriter::Open(*out, schema, spec, options);
    int32_t day = kFirstDay + m;
    for (int i = 0; i < kFilesPerManifest; ++i) {
      int64_t n = int64_t{m} * kFilesPerManifest + i;
      manifest::ManifestEntry e;
      e.snapshot_id = kSnapshotId;
      manifest::DataFile& f = e.data_file;
      f.file_path = "s3://warehouse/db/events/data/c2_day=" + std::to_string(day) + "/00000-" +
                    std::to_string(n) + "-4f5e6a7b-8c9d-0e1f-2a3b-4c5d6e7f8a9b.parquet";
      f.file_format = "parquet";
      f.partition = {Literal::Date(day)};
      f.record_count = 100'000;
      f.file_size_in_bytes = 96 << 20;
      for (int c = 1; c <= kColumns; ++c) {
        f.column_sizes.emplace_back(c, 1'000'000 + c);
        f.value_counts.emplace_back(c, f.record_count);
        f.null_value_counts.emplace_back(c, 0);
        std::string lower, upper;
        if (c == 2) {
          int64_t start = int64_t{day} * 86'400'000'000;
          lower = *Literal::Timestamp(start).ToBinary();
          upper = *Literal::Timestamp(start + 86'399'999'999).ToBinary();
        } else if (c % 3 == 0) {
          lower = "aaaa" + std::to_string(n % 1000);
          upper = "zzzz" + std::to_string(n % 1000);
        } else if (c % 3 == 1) {
          // c1 is an id whose ranges do not overlap between files.
          lower = *Literal::Long(n * 1000).ToBinary();
          upper = *Literal::Long(n * 1000 + 999).ToBinary();
        } else {
          lower = *Literal::Int(static_cast<int32_t>(n % 1000)).ToBinary();
          upper = *Literal::Int(static_cast<int32_t>(n % 1000 + 999)).ToBinary();
        }
        f.lower_bounds.emplace_back(c, std::move(lower));
        f.upper_bounds.emplace_back(c, std::move(upper));
      }
      f.split_offsets = {4, 32 << 20, 64 << 20};
      Check(writer->Add(e));
    }
    auto manifest = writer->Close();
    if (!manifest) Check(std::unexpected(manifest.error()));
    Check(list_writer->Add(*manifest));
  }
  Check(list_writer->Close());
  fs::rename(partial, list);
  return list;
}

TableMetadataPtr BenchTable() {
  SchemaPtr schema = BenchSchema();
  PartitionSpecPtr spec = *PartitionSpec::Make(
      *schema, 0,
      {{.source_ids = {2}, .field_id = 1000, .name = "c2_day", .transform = Transform::Day()}});
  std::string list = BuildTable(*schema, *spec);
  TableMetadataBuilder b(2);
  b.SetTableUuid("fb072c92-a02b-11e9-ae9c-1bb7bc9eca94")
      .SetLocation("s3://warehouse/db/events")
      .SetLastUpdatedMs(1)
      .SetLastColumnId(kColumns)
      .AddSchema(schema)
      .SetCurrentSchemaId(0)
      .AddPartitionSpec(spec)
      .SetDefaultSpecId(0)
      .SetLastPartitionId(1000)
      .AddSortOrder(SortOrder::Unsorted())
      .SetDefaultSortOrderId(0)
      .SetLastSequenceNumber(1)
      .AddSnapshot(std::make_shared<const Snapshot>(Snapshot{.snapshot_id = kSnapshotId,
                                                             .sequence_number = 1,
                                                             .timestamp_ms = 1,
                                                             .manifest_list = list,
                                                             .summary = {{"operation", "append"}},
                                                             .schema_id = 0}))
      .SetCurrentSnapshotId(kSnapshotId);
  auto metadata = b.Build();
  if (!metadata) Check(std::unexpected(metadata.error()));
  return *metadata;
}

enum Filter { kNone = 0, kPartition = 1, kMetrics = 2, kNoneWithStats = 3 };

// state.range(0): planning threads (1 = the calling thread only); range(1): Filter.
void BM_PlanFiles(benchmark::State& state) {
  static const TableMetadataPtr metadata = BenchTable();
  auto io = std::make_shared<io::LocalFileIO>();
  size_t threads = static_cast<size_t>(state.range(0));
  ThreadPool pool(threads - 1);
  int64_t files = 0;
  for (auto _ : state) {
    TableScan scan(metadata, io);
    if (threads > 1) scan.WithThreadPool(&pool);
    if (state.range(1) == kNoneWithStats) scan.IncludeColumnStats();
    if (state.range(1) == kPartition) {
      // One day.
      int64_t start = int64_t{kFirstDay + 500} * 86'400'000'000;
      scan.Filter(expr::And(expr::GreaterThanOrEqual("c2", Literal::Timestamp(start)),
                            expr::LessThan("c2", Literal::Timestamp(start + 86'400'000'000))));
    } else if (state.range(1) == kMetrics) {
      // Ten files' ids.
      scan.Filter(expr::And(expr::GreaterThanOrEqual("c1", Literal::Long(123'456'000)),
                            expr::LessThan("c1", Literal::Long(123'466'000))));
    }
    int64_t n = 0;
    Check(scan.PlanFiles([&n](FileScanTask task) -> Status {
      benchmark::DoNotOptimize(task);
      ++n;
      return Ok();
    }));
    files = n;
  }
  int64_t want = state.range(1) == kPartition ? kFilesPerManifest
                 : state.range(1) == kMetrics ? 10
                                              : int64_t{kManifests} * kFilesPerManifest;
  if (files != want) {
    std::fprintf(stderr, "planned %lld files, want %lld\n", static_cast<long long>(files),
                 static_cast<long long>(want));
    std::abort();
  }
  state.counters["tasks"] = static_cast<double>(files);
}

void Args(benchmark::internal::Benchmark* b) {
  int64_t all = static_cast<int64_t>(ThreadPool::DefaultWorkers());
  for (int64_t filter : {kNone, kPartition, kMetrics, kNoneWithStats}) {
    b->Args({1, filter});
    if (all > 1) b->Args({all, filter});
  }
}
BENCHMARK(BM_PlanFiles)->Apply(Args)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace floe::table
