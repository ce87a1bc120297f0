// Rows per CPU second of WriteRows into N tables, against the single-table IcebergSink, for
// bench/write_rows.sh. One batch-mode job, source and writer at parallelism 1, rows (id long,
// t int in [0, N), v double, s string of 16): with N = 0 the rows go to one table through the
// IcebergSink; with N >= 1 through WriteRows with the template "db.t_{t}" (tables created on first
// sight); with N < 0 through the IcebergSink into one table partitioned by identity(t) over -N
// values, which writes as many data files as WriteRows into -N tables (the per-file cost without
// the per-table one). Prints one line: mode, tables, rows, wall seconds, CPU seconds of the job,
// rows per CPU second, catalog requests (writer and committer; the IcebergSink's are not counted)
// and catalog requests per wall second.
//
//   floe_bench_write_rows WAREHOUSE ROWS TABLES

#include "floe/stream/iceberg/write_rows/write_rows.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "floe/stream/connectors/datagen_source.h"
#include "floe/stream/data_stream.h"
#include "floe/stream/iceberg/iceberg_sink.h"
#include "floe/table/scan/batch_types.h"

namespace floe::stream {
namespace {

double Seconds(const timeval& time) {
  return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_usec) / 1e6;
}
// User and system CPU seconds of the process so far.
std::pair<double, double> CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return {Seconds(usage.ru_utime), Seconds(usage.ru_stime)};
}

Status Run(const std::string& warehouse, int64_t rows, int tables) {
  auto schema = std::make_shared<const BatchSchema>(std::vector<Field>{
      Field{"id", DataType::Int64(), false}, Field{"t", DataType::Int32(), false},
      Field{"v", DataType::Float64(), true}, Field{"s", DataType::String(), true}});
  FLOE_ASSIGN_OR_RETURN(
      auto source, DatagenSource::Make(
                       schema, {{"number-of-rows", std::to_string(rows)},
                                {"rows-per-second", "0"},
                                {"fields.id.kind", "sequence"},
                                {"fields.id.start", "0"},
                                {"fields.id.end", std::to_string(rows - 1)},
                                {"fields.t.min", "0"},
                                {"fields.t.max", std::to_string(std::max(std::abs(tables), 1) - 1)},
                                {"fields.s.length", "16"}}));
  const StringMap catalog_properties = {{"catalog-type", "hadoop"}, {"warehouse", warehouse}};
  StreamEnvironment env({.mode = RuntimeMode::kBatch, .parallelism = 1});
  DataStream input = env.FromSource(source, "datagen");
  const catalog::TableIdentifier single{{{"db"}}, "single"};
  if (tables <= 0) {
    FLOE_ASSIGN_OR_RETURN(auto catalog, catalog::CreateCatalog("lake", catalog_properties));
    (void)catalog->CreateNamespace(single.ns, {});
    catalog::CreateTableRequest request;
    FLOE_ASSIGN_OR_RETURN(request.schema, table::SchemaFromBatchFields(schema->fields()));
    if (tables < 0) {
      FLOE_ASSIGN_OR_RETURN(request.spec, ParsePartitionFields({"t"}, *request.schema));
    }
    request.properties = {{"format-version", "2"}};
    FLOE_RETURN_IF_ERROR(catalog->CreateTable(single, request));
    FLOE_RETURN_IF_ERROR(
        IcebergSink::ForRows(input)
            .TableLoader(TableLoader::FromCatalog("lake", catalog_properties, single))
            .Append());
  } else {
    FLOE_RETURN_IF_ERROR(WriteRows::Of(input)
                             .Catalog("lake", catalog_properties)
                             .To(std::string("db.t_{t}"))
                             .Apply());
  }
  const auto cpu_start = CpuSeconds();
  const auto wall_start = std::chrono::steady_clock::now();
  FLOE_ASSIGN_OR_RETURN(JobResult result, env.Execute("bench-write-rows"));
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  const auto [user_end, system_end] = CpuSeconds();
  const double user = user_end - cpu_start.first;
  const double system = system_end - cpu_start.second;
  const double cpu = user + system;
  int64_t requests = 0;
  for (const auto& [name, value] : result.metrics) {
    if (name.ends_with(".catalogRequests")) requests += value;
  }
  std::printf(
      "%s tables=%d rows=%lld wall_s=%.2f cpu_s=%.2f (user %.2f, system %.2f) "
      "rows_per_cpu_s=%.0f catalog_requests=%lld catalog_requests_per_s=%.1f\n",
      tables == 0 ? "iceberg-sink" : (tables < 0 ? "iceberg-sink-partitioned" : "write-rows"),
      std::max(std::abs(tables), 1), static_cast<long long>(rows), wall, cpu, user, system,
      static_cast<double>(rows) / cpu, static_cast<long long>(requests),
      static_cast<double>(requests) / wall);
  return Ok();
}

}  // namespace
}  // namespace floe::stream

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr,
                 "usage: %s WAREHOUSE ROWS TABLES (0: the single-table IcebergSink; -N: it into "
                 "N identity partitions)\n",
                 argv[0]);
    return 2;
  }
  floe::Status status = floe::stream::Run(argv[1], std::stoll(argv[2]), std::stoi(argv[3]));
  if (!status) {
    std::fprintf(stderr, "%s\n", status.error().ToString().c_str());
    return 1;
  }
  return 0;
}
