// "Reading with DataStream (FLIP-27 source)", batch read: every row of the table, printed, by a
// job in batch mode.
//
//   flip27_batch_read TABLE_DIR

#include "example_support.h"
#include "floe/stream/iceberg/iceberg_source.h"

using namespace floe;
using namespace floe::stream;

int main(int argc, char** argv) {
  if (argc != 2) {
    return examples::Fail(InvalidArgument("usage: flip27_batch_read TABLE_DIR"), argv[0]);
  }
  StreamEnvironment env({.mode = RuntimeMode::kBatch});
  TableLoader table_loader = TableLoader::FromFolder(argv[1]);
  Result<std::shared_ptr<Source>> source = IcebergSource::ForRows(table_loader).Build();
  if (!source) return examples::Fail(source.error(), argv[0]);
  DataStream batch = env.FromSource(*source, "My Iceberg Source");

  // Print all records to stdout.
  examples::Print(batch);

  // Submit and execute this batch read job.
  return examples::ExitCode(env.Execute("Test Iceberg Batch Read"), argv[0]);
}
