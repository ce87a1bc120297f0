// Fuzz target: the record formats of the Kafka connector (record_decoder.h) over JSON lines: each
// line of the input after its first byte is one record. Byte 0 picks the format and its options
// (modulo 8):
//   0 json   1 json, ignoring parse errors and failing on missing fields   2 csv
//   3 raw    4 debezium-json   5 debezium-json with the schema included
//   6 canal-json   7 canal-json ignoring parse errors, with database and table patterns
// A record must decode to rows or an error, never a crash or a sanitizer report; after each line
// the rows so far are finished into a batch.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "floe/format/text/line_reader.h"
#include "floe/io/memory_file_io.h"
#include "floe/stream/connectors/record_decoder.h"
#include "floe/testing/fuzz_input.h"

namespace {

using floe::BatchSchema;
using floe::DataType;
using floe::Field;

floe::BatchSchemaPtr Columns() {
  return std::make_shared<BatchSchema>(std::vector<Field>{
      {"id", DataType::Int64(), false},
      {"name", DataType::String()},
      {"price", DataType::Decimal128(10, 2)},
      {"day", DataType::Date32()},
      {"at", DataType::Timestamp(floe::TimeUnit::kMicro, false)},
      {"at_tz", DataType::Timestamp(floe::TimeUnit::kMicro, true)},
      {"ok", DataType::Bool()},
      {"score", DataType::Float64()},
      {"n", DataType::Int32()},
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  std::string format;
  std::map<std::string, std::string> options;
  floe::BatchSchemaPtr schema = Columns();
  switch (data[0] % 8) {
    case 0:
      format = "json";
      break;
    case 1:
      format = "json";
      options = {{"json.ignore-parse-errors", "true"}, {"json.fail-on-missing-field", "true"}};
      break;
    case 2:
      format = "csv";
      break;
    case 3:
      format = "raw";
      schema = std::make_shared<BatchSchema>(std::vector<Field>{{"line", DataType::String()}});
      break;
    case 4:
      format = "debezium-json";
      break;
    case 5:
      format = "debezium-json";
      options = {{"debezium-json.schema-include", "true"}};
      break;
    case 6:
      format = "canal-json";
      break;
    case 7:
      format = "canal-json";
      options = {{"canal-json.ignore-parse-errors", "true"},
                 {"canal-json.database.include", "inv.*"},
                 {"canal-json.table.include", "prod(ucts)?|orders"}};
      break;
  }
  auto decoder = floe::stream::RecordDecoder::Make(format, schema, options);
  if (!decoder) return 0;
  floe::io::MemoryFileIO io;
  floe::text::LineReader lines(
      floe::testing::FuzzInputFile(io, "mem:/records", data + 1, size - 1));
  std::string_view line;
  for (int i = 0; i < 10000; ++i) {
    auto more = lines.Next(line);
    if (!more || !*more) break;
    (void)(*decoder)->Decode(line);
    (void)(*decoder)->Finish();
  }
  return 0;
}
