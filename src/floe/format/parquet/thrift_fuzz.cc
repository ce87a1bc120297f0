// Fuzz target: the Thrift compact structures of Parquet metadata. Byte 0 of the input picks the
// structure (modulo 6), the rest is its encoding:
//   0 FileMetaData (the footer)   1 PageHeader     2 ColumnIndex
//   3 OffsetIndex                 4 BloomFilterHeader
//   5 a whole file's tail: footer length and magic, as ParseFooter reads it
// Decoding must end in a structure or kCorruptData, never a crash or a read past the input; a
// decoded footer or page header must encode to bytes that decode again.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>

#include "floe/format/parquet/footer.h"
#include "floe/format/parquet/metadata_thrift.h"

namespace {

void Check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "%s: encoded form does not decode\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  auto bytes = std::as_bytes(std::span(data + 1, size - 1));
  namespace pq = floe::parquet;
  switch (data[0] % 6) {
    case 0:
      if (auto metadata = pq::DecodeFileMetaData(bytes)) {
        Check(pq::DecodeFileMetaData(pq::EncodeFileMetaData(*metadata)).has_value(), "FileMetaData");
      }
      break;
    case 1:
      if (auto page = pq::DecodePageHeader(bytes)) {
        Check(pq::DecodePageHeader(pq::EncodePageHeader(page->header)).has_value(), "PageHeader");
      }
      break;
    case 2: (void)pq::DecodeColumnIndex(bytes); break;
    case 3: (void)pq::DecodeOffsetIndex(bytes); break;
    case 4: (void)pq::DecodeBloomFilterHeader(bytes); break;
    case 5: (void)pq::ParseFooter(bytes); break;
  }
  return 0;
}
