// Fuzz target: arbitrary bytes as an Iceberg manifest list and as a manifest (Avro containers read
// through the Iceberg schemas of each format version). Reading must end in entries or an error,
// never a crash, a sanitizer report or an unbounded allocation.

#include <cstddef>
#include <cstdint>
#include <span>

#include "floe/manifest/manifest_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto bytes = std::as_bytes(std::span(data, size));
  (void)floe::manifest::ReadManifestList(bytes, "fuzz-manifest-list.avro");
  auto reader = floe::manifest::ManifestReader::Open(bytes, "fuzz-manifest.avro");
  if (!reader) return 0;
  floe::manifest::ManifestEntry entry;
  for (int i = 0; i < 100000; ++i) {
    auto more = (*reader)->Next(entry);
    if (!more || !*more) break;
  }
  return 0;
}
