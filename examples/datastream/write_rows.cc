// WriteRows: one generated stream of events fanned out to many tables of a hadoop catalog, one
// table per region and kind ("db.events_{region}_{kind}"), created on first sight, partitioned by
// bucket(id, 4), committed roughly every second; the committed snapshots are printed as they come.
//
//   write_rows WAREHOUSE_DIR [ROWS [CHECKPOINT_DIR [ROWS_PER_SECOND [CHECKPOINT_MS]]]]
//
// WAREHOUSE_DIR may instead be the http:// or https:// URI of a REST catalog (`floe serve`), whose
// tables then take the places it gives them; CHECKPOINT_DIR is required then.
//
// Without ROWS the stream is unbounded (stop it with Ctrl-C); with ROWS it is bounded, which
// commits at every checkpoint and at the end (a triggering frequency is for unbounded input only).
// Run again with the same arguments after a crash, it resumes from its latest checkpoint.

#include "floe/stream/iceberg/write_rows/write_rows.h"

#include <string>

#include "example_support.h"
#include "floe/stream/connectors/datagen_source.h"

using namespace floe;
using namespace floe::stream;

int main(int argc, char** argv) {
  if (argc < 2) {
    return examples::Fail(InvalidArgument("usage: write_rows WAREHOUSE_DIR [ROWS [CHECKPOINT_DIR "
                                          "[ROWS_PER_SECOND [CHECKPOINT_MS]]]]"),
                          argv[0]);
  }
  const std::string warehouse = argv[1];
  const bool rest = warehouse.starts_with("http://") || warehouse.starts_with("https://");
  const bool bounded = argc > 2;
  if (rest && argc < 4) {
    return examples::Fail(InvalidArgument("a REST catalog needs a CHECKPOINT_DIR"), argv[0]);
  }
  auto schema = std::make_shared<const BatchSchema>(std::vector<Field>{
      Field{"id", DataType::Int64(), false}, Field{"region", DataType::Int32(), false},
      Field{"kind", DataType::Int32(), false}, Field{"amount", DataType::Float64(), true}});
  const std::string rate = argc > 4 ? argv[4] : bounded ? "0" : "20000";
  const int64_t interval_ms = argc > 5 ? std::stoll(argv[5]) : 1000;
  std::map<std::string, std::string> options = {
      {"rows-per-second", rate},  {"fields.id.kind", "sequence"},
      {"fields.id.start", "0"},   {"fields.id.end", "9223372036854775806"},
      {"fields.region.min", "0"}, {"fields.region.max", "3"},
      {"fields.kind.min", "0"},   {"fields.kind.max", "2"}};
  if (bounded) options["number-of-rows"] = argv[2];
  auto source = DatagenSource::Make(schema, options);
  if (!source) return examples::Fail(source.error(), argv[0]);

  StreamEnvironment env({.parallelism = 2,
                         .checkpoint_interval_ms = interval_ms,
                         .checkpoint_dir = argc > 3 ? argv[3] : warehouse + "/_checkpoints"});
  DataStream events = env.FromSource(*source, "events");
  WriteRows write = WriteRows::Of(events);
  write
      .Catalog("lake", rest ? StringMap{{"catalog-type", "rest"}, {"uri", warehouse}}
                            : StringMap{{"catalog-type", "hadoop"}, {"warehouse", warehouse}})
      .To(std::string("db.events_{region}_{kind}"))
      .PartitionFields({"bucket(id, 4)"})
      .WithDistributionMode(DistributionMode::kHash)
      .SinkId("write-rows-example");
  if (!bounded) write.WithTriggeringFrequency(std::chrono::seconds(1));
  Result<DataStream> snapshots = write.Apply();
  if (!snapshots) return examples::Fail(snapshots.error(), argv[0]);
  examples::Print(*snapshots);
  return examples::ExitCode(env.Execute("write-rows-example"), argv[0]);
}
