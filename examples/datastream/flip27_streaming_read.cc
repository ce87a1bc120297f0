// "Reading with DataStream (FLIP-27 source)", streaming read: from the latest snapshot (inclusive),
// polling the table every MONITOR_INTERVAL_MS (60000 in the documentation) for new append-only
// snapshots. Runs until killed, or until it printed STOP_AFTER_ROWS rows.
//
//   flip27_streaming_read TABLE_DIR MONITOR_INTERVAL_MS [STOP_AFTER_ROWS]

#include "example_support.h"
#include "floe/stream/iceberg/iceberg_source.h"

using namespace floe;
using namespace floe::stream;

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    return examples::Fail(InvalidArgument("usage: flip27_streaming_read TABLE_DIR "
                                          "MONITOR_INTERVAL_MS [STOP_AFTER_ROWS]"),
                          argv[0]);
  }
  StreamEnvironment env;
  TableLoader table_loader = TableLoader::FromFolder(argv[1]);
  Result<std::shared_ptr<Source>> source =
      IcebergSource::ForRows(table_loader)
          .Streaming(true)
          .StartingStrategy(StartingStrategy::kIncrementalFromLatestSnapshot)
          .MonitorInterval(std::stoll(argv[2]))
          .Build();
  if (!source) return examples::Fail(source.error(), argv[0]);
  DataStream stream = env.FromSource(*source, "My Iceberg Source");

  // Print all records to stdout.
  std::optional<int64_t> stop_after;
  if (argc == 4) stop_after = std::stoll(argv[3]);
  examples::Print(stream, stop_after);

  // Submit and execute this streaming read job.
  return examples::ExitCode(env.Execute("Test Iceberg Streaming Read"), argv[0]);
}
