// "Writing with DataStream", appending data: the rows given as arguments go into the table
// (created when missing: id long, the identifier field, and data string).
//
//   append TABLE_DIR ID:DATA...

#include "example_support.h"
#include "floe/stream/iceberg/iceberg_sink.h"

using namespace floe;
using namespace floe::stream;

int main(int argc, char** argv) {
  if (argc < 3) {
    return examples::Fail(InvalidArgument("usage: append TABLE_DIR ID:DATA..."), argv[0]);
  }
  if (Status created = examples::CreateTableIfMissing(argv[1]); !created) {
    return examples::Fail(created.error(), argv[0]);
  }
  StreamEnvironment env;

  Result<DataStream> input = examples::RowsFromArgs(env, {argv + 2, argv + argc});
  if (!input) return examples::Fail(input.error(), argv[0]);
  TableLoader table_loader = TableLoader::FromFolder(argv[1]);

  Status sink = IcebergSink::ForRows(*input).TableLoader(table_loader).Append();
  if (!sink) return examples::Fail(sink.error(), argv[0]);

  return examples::ExitCode(env.Execute("Test Iceberg DataStream"), argv[0]);
}
