// libFuzzer target: arbitrary bytes as an Avro container file. Reading must end in a value or an
// error, never a crash, a sanitizer report, or an allocation past the reader's limits.

#include <cstddef>
#include <cstdint>
#include <span>

#include "floe/format/avro/container.h"
#include "floe/format/avro/datum_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  floe::avro::ContainerReadOptions options;
  options.max_block_bytes = size_t{16} << 20;
  options.max_header_bytes = size_t{1} << 20;
  auto reader =
      floe::avro::ContainerReader::Open(std::as_bytes(std::span(data, size)), "fuzz.avro", options);
  if (!reader) return 0;
  floe::avro::Datum datum;
  for (int i = 0; i < 10000; ++i) {
    auto more = (*reader)->Next(datum);
    if (!more || !*more) break;
    (void)floe::avro::DatumToJson((*reader)->writer_schema()->root(), datum).Dump();
  }
  return 0;
}
