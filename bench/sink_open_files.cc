// Peak memory of one IcebergSink writer subtask with many open partitions, for
// bench/sink_open_files.sh: writes `rows` rows of (id long, p int, payload string of 40 bytes)
// spread over `partitions` identity partitions of p into a fresh table, in batches of 8192 rows,
// with the sink option max-open-files = `max_open`, and closes the files at one checkpoint.
// `order` is "random" (every batch touches every partition) or "clustered" (rows arrive sorted
// by p, as time-partitioned data does). With "upsert", (id, p) is the table's identifier and the
// sink upserts, so the delta writer takes the rows; every tenth row reuses the id (and p) of the
// row five before it (10% updates). Prints the files written; the script measures the RSS.
//
//   floe_bench_sink_open_files FOLDER PARTITIONS ROWS MAX_OPEN random|clustered [upsert]

#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/stream/iceberg/sink_writer.h"
#include "floe/stream/metrics.h"

namespace floe::stream {
namespace {

class CountingOutput : public Output {
 public:
  Status Emit(RecordBatch) override { return {}; }
  Status EmitMessage(Message message, int) override {
    files += std::any_cast<SinkWriteResult>(message.value).files->data_files.size();
    return {};
  }
  size_t files = 0;
};

Status Run(const std::string& folder, int partitions, int64_t rows, int max_open, bool clustered,
           bool upsert) {
  TableLoader loader = TableLoader::FromCatalog(
      "bench", {{"catalog-type", "hadoop"}, {"warehouse", folder}}, {{{"db"}}, "t"});
  FLOE_ASSIGN_OR_RETURN(auto catalog, loader.LoadCatalog());
  FLOE_RETURN_IF_ERROR(catalog->CreateNamespace({{"db"}}, {}));
  catalog::CreateTableRequest request;
  request.schema = std::make_shared<Schema>(
      std::vector<NestedField>{types::Required(1, "id", types::Long()),
                               types::Required(2, "p", types::Int()),
                               types::Optional(3, "payload", types::String())},
      0, upsert ? std::vector<int32_t>{1, 2} : std::vector<int32_t>{});
  if (upsert) request.properties = {{"format-version", "2"}};
  request.spec = std::make_shared<PartitionSpec>(
      0, std::vector<PartitionField>{{{2}, 1000, "p", Transform::Identity()}});
  FLOE_RETURN_IF_ERROR(catalog->CreateTable({{{"db"}}, "t"}, request));

  std::map<std::string, std::string> options = {{"max-open-files", std::to_string(max_open)}};
  if (upsert) options["upsert-enabled"] = "true";
  IcebergSinkWriter writer(SinkSpec{.loader = loader, .options = options});
  MetricGroup metrics;
  OperatorContext context{.job_name = "bench", .operator_name = "writer", .metrics = &metrics};
  FLOE_RETURN_IF_ERROR(writer.Open(context));
  auto schema = std::make_shared<const BatchSchema>(
      std::vector<Field>{{"id", DataType::Int64(), false, 1},
                         {"p", DataType::Int32(), false, 2},
                         {"payload", DataType::String(), true, 3}});
  std::mt19937_64 rng(7);
  std::vector<int32_t> recent(5);  // p of the last five rows, for the updates
  CountingOutput output;
  constexpr int64_t kBatch = 8192;
  for (int64_t start = 0; start < rows; start += kBatch) {
    Int64Builder ids;
    Int32Builder ps;
    StringBuilder payloads(DataType::String());
    for (int64_t i = start; i < std::min(rows, start + kBatch); ++i) {
      int32_t p = clustered ? static_cast<int32_t>(i * partitions / rows)
                            : static_cast<int32_t>(rng() % partitions);
      if (upsert && i % 10 == 9) {
        ids.Append(i - 5);
        p = recent[(i - 5) % 5];
      } else {
        ids.Append(i);
      }
      recent[i % 5] = p;
      ps.Append(p);
      payloads.Append(std::to_string(rng()) + std::to_string(rng()) + "-payload");
    }
    FLOE_ASSIGN_OR_RETURN(RecordBatch batch, RecordBatch::Make(schema, {*ids.Finish(), *ps.Finish(),
                                                                        *payloads.Finish()}));
    FLOE_RETURN_IF_ERROR(writer.ProcessBatch(0, std::move(batch), output));
  }
  FLOE_RETURN_IF_ERROR(writer.SnapshotState(1, output));
  std::printf("%zu files\n", output.files);
  return Ok();
}

}  // namespace
}  // namespace floe::stream

int main(int argc, char** argv) {
  if (argc != 6 && argc != 7) {
    std::fprintf(stderr, "usage: %s FOLDER PARTITIONS ROWS MAX_OPEN random|clustered [upsert]\n",
                 argv[0]);
    return 2;
  }
  auto status = floe::stream::Run(argv[1], std::stoi(argv[2]), std::stoll(argv[3]),
                                  std::stoi(argv[4]), std::string(argv[5]) == "clustered",
                                  argc == 7 && std::string(argv[6]) == "upsert");
  if (!status) {
    std::fprintf(stderr, "%s\n", status.error().ToString().c_str());
    return 1;
  }
  return 0;
}
