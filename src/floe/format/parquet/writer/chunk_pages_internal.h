#pragma once

// Internal to the Parquet writer: the pages of one column chunk. Each page is compressed (the
// levels of a v2 page stay uncompressed in front of its values) and kept behind its header until
// the chunk goes to the file, with the sizes and encodings its column metadata records. A codec
// failure is kept and reported by status().

#include <cstdint>
#include <set>
#include <span>
#include <vector>

#include "floe/format/parquet/metadata.h"
#include "floe/util/error.h"

namespace floe::io {
class FileWriter;
}

namespace floe::parquet {

struct WriterOptions;

class ChunkPages {
 public:
  // options and compressed (the scratch buffer pages are compressed in) must outlive this.
  ChunkPages(const WriterOptions& options, std::vector<std::byte>& compressed)
      : options_(options), compressed_(compressed) {}

  // Compresses body and appends header, levels and body to out; returns the page's uncompressed
  // size, header included.
  int64_t EncodePage(PageHeader& header, std::span<const std::byte> body,
                     std::span<const std::byte> levels, std::vector<std::byte>& out);
  // A data page, kept as the chunk's next page; returns its location, the offset counted from the
  // chunk's first data page.
  PageLocation AddDataPage(PageHeader& header, std::span<const std::byte> body,
                           std::span<const std::byte> levels, int64_t first_row_index);
  // The size of body compressed with the chunk's codec, compressed into scratch.
  size_t CompressedSize(std::span<const std::byte> body, std::vector<std::byte>& scratch);

  void AddEncoding(Encoding encoding) { encodings_.insert(encoding); }
  const std::set<Encoding>& encodings() const { return encodings_; }
  // The data pages' bytes as stored, and uncompressed (headers included).
  int64_t bytes() const { return bytes_; }
  int64_t uncompressed_bytes() const { return uncompressed_; }
  const Status& status() const { return status_; }

  // Writes the data pages, one by one: a chunk never sits in memory twice.
  Status WriteTo(io::FileWriter& file) const;
  // For the next chunk; the memory of the pages goes.
  void Reset();

 private:
  // Compresses body into out with the chunk's codec, keeping the first failure.
  void CompressInto(std::span<const std::byte> body, std::vector<std::byte>& out);

  const WriterOptions& options_;
  std::vector<std::byte>& compressed_;
  Status status_;
  std::vector<std::vector<std::byte>> pages_;  // each page's header and body
  int64_t bytes_ = 0;
  int64_t uncompressed_ = 0;
  std::set<Encoding> encodings_;
};

}  // namespace floe::parquet
