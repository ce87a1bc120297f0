// One streaming (or batch-mode) ingest job into a fresh Iceberg table, for bench/stream_ingest.sh:
// a source of events rows (id long, ts timestamp, category string, value double, payload string)
// -> IcebergSink, source and writer at parallelism 1. Prints one line: rows, wall seconds, CPU
// seconds of the process (user + system, getrusage, the job only: not the table's creation),
// rows per CPU second, commits, the 1-minute load average, and latency figures (below).
//
//   floe_bench_stream_ingest WAREHOUSE datagen:ROWS|file:PATH append|upsert CHECKPOINT_MS
//                            [streaming|batch]
//
// upsert: the table has id as its identifier field and the sink upserts; every tenth row re-uses
// the id of the row five before it (10% updates of recent keys), done as the rows leave the source.
//
// Latency: a row is created when its batch leaves the source reader (datagen generates it there; a
// file row is decoded there); the bench logs (rows so far, wall clock) per batch. With one reader
// and one writer the rows are committed in the order they were created, so snapshot k holds the
// rows numbered up to the sum of the `added-records` of snapshots 1..k; a batch's latency is the
// timestamp of the first snapshot holding its last row minus its creation time. Printed: the
// row-weighted mean and the maximum over batches (ms). The snapshot timestamp is taken when the
// commit writes its metadata, a few ms before the commit is visible.

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/io/local_file_io.h"
#include "floe/stream/connectors/datagen_source.h"
#include "floe/stream/connectors/file_source.h"
#include "floe/stream/data_stream.h"
#include "floe/stream/iceberg/iceberg_sink.h"
#include "floe/table/scan/batch_types.h"
#include "floe/table/table.h"
#include "floe/util/clock.h"

namespace floe::stream {
namespace {

double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// (rows emitted so far, wall clock ms) after each batch.
struct CreationLog {
  std::mutex mutex;
  std::vector<std::pair<int64_t, int64_t>> batches;
  int64_t rows = 0;
};

// Passes batches through, logging their creation and, for upserts, re-using keys.
class StampingOutput : public Output {
 public:
  StampingOutput(Output& inner, CreationLog& log, bool reuse_keys)
      : inner_(inner), log_(log), reuse_keys_(reuse_keys) {}

  Status Emit(RecordBatch batch) override {
    if (reuse_keys_) {
      const Array& ids = batch.column(0);
      Int64Builder builder;
      builder.Reserve(batch.num_rows());
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        const int64_t id = ids.Value<int64_t>(i);
        builder.Append(id % 10 == 9 ? id - 5 : id);
      }
      std::vector<Array> columns = batch.columns();
      FLOE_ASSIGN_OR_RETURN(columns[0], builder.Finish());
      FLOE_ASSIGN_OR_RETURN(batch, RecordBatch::Make(batch.schema(), std::move(columns)));
    }
    {
      std::lock_guard lock(log_.mutex);
      log_.rows += batch.num_rows();
      log_.batches.emplace_back(log_.rows, NowMs());
    }
    return inner_.Emit(std::move(batch));
  }
  Status EmitMessage(Message message, int channel) override {
    return inner_.EmitMessage(std::move(message), channel);
  }

 private:
  Output& inner_;
  CreationLog& log_;
  bool reuse_keys_;
};

class StampingReader : public SourceReader {
 public:
  StampingReader(std::unique_ptr<SourceReader> inner, CreationLog& log, bool reuse_keys)
      : inner_(std::move(inner)), log_(log), reuse_keys_(reuse_keys) {}
  Status Open(const OperatorContext& context, SourceReaderContext& reader_context) override {
    return inner_->Open(context, reader_context);
  }
  void AddSplits(std::vector<std::any> splits) override { inner_->AddSplits(std::move(splits)); }
  void NotifyNoMoreSplits() override { inner_->NotifyNoMoreSplits(); }
  Result<PollStatus> PollNext(Output& output) override {
    StampingOutput stamping(output, log_, reuse_keys_);
    return inner_->PollNext(stamping);
  }
  Result<std::vector<std::string>> SnapshotState(int64_t checkpoint_id) override {
    return inner_->SnapshotState(checkpoint_id);
  }
  Status NotifyCheckpointComplete(int64_t checkpoint_id) override {
    return inner_->NotifyCheckpointComplete(checkpoint_id);
  }

 private:
  std::unique_ptr<SourceReader> inner_;
  CreationLog& log_;
  bool reuse_keys_;
};

class StampingSource : public Source {
 public:
  StampingSource(std::shared_ptr<Source> inner, CreationLog& log, bool reuse_keys)
      : inner_(std::move(inner)), log_(log), reuse_keys_(reuse_keys) {}
  BatchSchemaPtr schema() const override { return inner_->schema(); }
  bool bounded() const override { return inner_->bounded(); }
  Result<std::unique_ptr<SplitEnumerator>> CreateEnumerator() override {
    return inner_->CreateEnumerator();
  }
  Result<std::unique_ptr<SourceReader>> CreateReader(int subtask_index) override {
    FLOE_ASSIGN_OR_RETURN(auto reader, inner_->CreateReader(subtask_index));
    return std::make_unique<StampingReader>(std::move(reader), log_, reuse_keys_);
  }

 private:
  std::shared_ptr<Source> inner_;
  CreationLog& log_;
  bool reuse_keys_;
};

BatchSchemaPtr EventsSchema() {
  return std::make_shared<const BatchSchema>(
      std::vector<Field>{{"id", DataType::Int64(), true, 1},
                         {"ts", DataType::Timestamp(TimeUnit::kMicro, false), true, 2},
                         {"category", DataType::String(), true, 3},
                         {"value", DataType::Float64(), true, 4},
                         {"payload", DataType::String(), true, 5}});
}

Result<std::shared_ptr<Source>> MakeSource(const std::string& spec) {
  if (spec.starts_with("datagen:")) {
    const std::string rows = spec.substr(8);
    return DatagenSource::Make(EventsSchema(),
                               {{"rows-per-second", "0"},
                                {"number-of-rows", rows},
                                {"fields.id.kind", "sequence"},
                                {"fields.id.start", "0"},
                                {"fields.id.end", std::to_string(std::stoll(rows) - 1)},
                                {"fields.category.length", "6"},
                                {"fields.payload.length", "32"}});
  }
  if (spec.starts_with("file:")) {
    return FileSource::Make(std::make_shared<io::LocalFileIO>(), nullptr,
                            {{"path", spec.substr(5)}, {"format", "parquet"}});
  }
  return InvalidArgument("unknown source '{}' (datagen:ROWS or file:PATH)", spec);
}

struct Latency {
  double mean_ms = 0;
  int64_t max_ms = 0;
};

Latency ComputeLatency(const CreationLog& log, const std::vector<SnapshotPtr>& oldest_first) {
  std::vector<std::pair<int64_t, int64_t>> committed;  // (rows so far, snapshot time)
  int64_t rows = 0;
  for (const SnapshotPtr& snapshot : oldest_first) {
    auto added = snapshot->summary.find("added-records");
    if (added != snapshot->summary.end()) rows += std::stoll(added->second);
    committed.emplace_back(rows, snapshot->timestamp_ms);
  }
  Latency latency;
  double weighted = 0;
  int64_t previous = 0;
  size_t next = 0;
  for (const auto& [rows_so_far, created_ms] : log.batches) {
    while (next < committed.size() && committed[next].first < rows_so_far) ++next;
    if (next == committed.size()) break;
    const int64_t ms = committed[next].second - created_ms;
    weighted += static_cast<double>(ms) * static_cast<double>(rows_so_far - previous);
    latency.max_ms = std::max(latency.max_ms, ms);
    previous = rows_so_far;
  }
  latency.mean_ms = previous > 0 ? weighted / static_cast<double>(previous) : 0;
  return latency;
}

Status Run(const std::string& warehouse, const std::string& source_spec, bool upsert,
           int64_t checkpoint_ms, bool batch_mode) {
  const catalog::TableIdentifier ident{{{"db"}}, "events"};
  TableLoader loader = TableLoader::FromCatalog(
      "bench", {{"catalog-type", "hadoop"}, {"warehouse", warehouse + "/wh"}}, ident);
  CreationLog log;
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<Source> inner, MakeSource(source_spec));
  auto source = std::make_shared<StampingSource>(inner, log, upsert);

  FLOE_ASSIGN_OR_RETURN(auto catalog, loader.LoadCatalog());
  FLOE_RETURN_IF_ERROR(catalog->CreateNamespace(ident.ns, {}));
  std::vector<Field> fields = source->schema()->fields();
  if (upsert) fields[0].nullable = false;
  FLOE_ASSIGN_OR_RETURN(SchemaPtr columns, table::SchemaFromBatchFields(fields));
  catalog::CreateTableRequest request;
  request.schema = std::make_shared<Schema>(
      std::vector<NestedField>(columns->fields().begin(), columns->fields().end()), 0,
      upsert ? std::vector<int32_t>{columns->fields()[0].id} : std::vector<int32_t>{});
  request.properties = {{"format-version", "2"}, {"write.parquet.compression-codec", "zstd"}};
  FLOE_RETURN_IF_ERROR(catalog->CreateTable(ident, request));

  StreamEnvironment env({.mode = batch_mode ? RuntimeMode::kBatch : RuntimeMode::kStreaming,
                         .checkpoint_interval_ms = checkpoint_ms,
                         .checkpoint_dir = checkpoint_ms > 0 ? warehouse + "/checkpoints" : ""});
  DataStream rows = env.FromSource(source, "events");
  FLOE_RETURN_IF_ERROR(IcebergSink::ForRows(rows).TableLoader(loader).Upsert(upsert).Append());

  const double cpu_before = CpuSeconds();
  const auto start = std::chrono::steady_clock::now();
  FLOE_ASSIGN_OR_RETURN(JobResult result, env.Execute("ingest"));
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = CpuSeconds() - cpu_before;

  FLOE_ASSIGN_OR_RETURN(auto table, loader.Load());
  std::vector<SnapshotPtr> snapshots;
  const TableMetadataPtr& metadata = table->metadata();
  const SnapshotRef* ref = metadata->FindRef("main");
  for (SnapshotPtr s = ref ? metadata->SnapshotById(ref->snapshot_id) : nullptr; s != nullptr;
       s = s->parent_snapshot_id ? metadata->SnapshotById(*s->parent_snapshot_id) : nullptr) {
    snapshots.insert(snapshots.begin(), s);
  }
  const Latency latency = ComputeLatency(log, snapshots);
  double load[1] = {0};
  getloadavg(load, 1);
  std::printf("%lld %.3f %.3f %.0f %zu %.2f %.0f %lld %lld\n", static_cast<long long>(log.rows),
              wall, cpu, static_cast<double>(log.rows) / cpu, snapshots.size(), load[0],
              latency.mean_ms, static_cast<long long>(latency.max_ms),
              static_cast<long long>(result.checkpoints_completed));
  return Ok();
}

}  // namespace
}  // namespace floe::stream

int main(int argc, char** argv) {
  if (argc != 5 && argc != 6) {
    std::fprintf(stderr,
                 "usage: %s WAREHOUSE datagen:ROWS|file:PATH append|upsert CHECKPOINT_MS "
                 "[streaming|batch]\n",
                 argv[0]);
    return 2;
  }
  auto status =
      floe::stream::Run(argv[1], argv[2], std::string(argv[3]) == "upsert", std::stoll(argv[4]),
                        argc == 6 && std::string(argv[5]) == "batch");
  if (!status) {
    std::fprintf(stderr, "%s\n", status.error().ToString().c_str());
    return 1;
  }
  return 0;
}
