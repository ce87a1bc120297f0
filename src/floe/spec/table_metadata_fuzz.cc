// Fuzz target: arbitrary bytes as a table metadata file (plain JSON, or gzip or zstd compressed:
// table_metadata_io.h tells them apart by magic bytes). Reading must end in metadata or an error,
// never a crash or a sanitizer report; metadata that reads must write back to JSON that reads again.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "floe/spec/table_metadata_io.h"
#include "floe/spec/table_metadata_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto json = floe::DecompressMetadata(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!json) return 0;
  auto metadata = floe::TableMetadataFromJsonString(*json);
  if (!metadata) return 0;
  std::string written = floe::TableMetadataToJsonString(**metadata);
  auto again = floe::TableMetadataFromJsonString(written);
  if (!again) {
    std::fprintf(stderr, "written metadata does not read: %s\n%s\n", again.error().message().c_str(),
                 written.c_str());
    std::abort();
  }
  return 0;
}
