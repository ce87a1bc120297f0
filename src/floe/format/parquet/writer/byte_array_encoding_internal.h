#pragma once

// Internal to the Parquet writer: the encoding of a page of BYTE_ARRAY values that are not
// dictionary-encoded. Such pages may go as PLAIN, as DELTA_LENGTH_BYTE_ARRAY (the lengths
// delta-packed in front, then the bytes back to back) or as DELTA_BYTE_ARRAY (each value's prefix
// shared with the previous one left out). Which is smallest depends on the data: the separate
// lengths win for strings without structure (hex digests: 8% smaller and three times faster to
// compress at zstd level 1) and lose for text (TPC-H comments: 5% larger, the interleaved lengths
// help the codec find word boundaries); shared prefixes (keys with a common stem, sorted values)
// give the codec less to do (a constant 8-byte stem on hex digests: 3% smaller than PLAIN and
// compressed in a third of the time).
//
// The chunk's first such page decides. PLAIN against the separate lengths is decided on a sample
// of about kEncodingProbeBytes, compressed both ways. Left-out prefixes can only pay when values
// share a good part of their bytes with the previous one (at least kSharedPrefixShare of the
// sample's bytes); then the sample's winner and DELTA_BYTE_ARRAY are compressed over the whole
// page, because a stem only wins on whole pages (on 64 KiB samples of stemmed digests the codec
// alone does as well), or over the sample in a chunk of one page, where the whole page would
// cost more than writing it. So a many-table stream's small files and pages of values without
// shared prefixes pay two compressions of a sample, not three of a page.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "floe/format/parquet/metadata.h"

namespace floe::parquet {

class ChunkPages;

// The open page's byte arrays: their bytes back to back and, for BYTE_ARRAY, each one's length.
struct ByteArrayPage {
  std::string data;
  std::vector<int32_t> lengths;
};

class ByteArrayEncoder {
 public:
  // Appends the BYTE_ARRAY page's values to out in the chunk's encoding, which the first page of
  // the chunk chooses (with delta_encoding; PLAIN without), compressing candidates with pages'
  // codec; chunk_end: this page is the chunk's last. Returns the encoding.
  Encoding EncodePage(const ByteArrayPage& page, bool chunk_end, bool delta_encoding,
                      ChunkPages& pages, std::vector<std::byte>& out);
  // For the next chunk, which chooses again.
  void Reset() { chosen_.reset(); }

 private:
  static constexpr size_t kEncodingProbeBytes = 16 << 10;
  static constexpr size_t kSharedPrefixShare = 8;  // one byte in eight

  std::optional<Encoding> chosen_;
};

}  // namespace floe::parquet
