#pragma once

// Reads the pages of one column chunk: the chunk's bytes are read from the source in one piece,
// then each page header is decoded, its CRC checked when the writer stored one, and its body
// decompressed with the chunk's codec (for data page v2, only the part after the levels, and only
// when the header says it is compressed). Index pages are skipped. Every size from the file is
// checked against the chunk before use; a page may not declare more than kMaxPageSize bytes
// uncompressed.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "floe/format/parquet/metadata.h"
#include "floe/util/error.h"

namespace floe::parquet {

class RandomAccessSource;

struct Page {
  PageHeader header;
  // The uncompressed page body (for v2: levels then values, all uncompressed).
  std::vector<std::byte> data;
  int64_t offset = 0;  // of the page header in the file, for error messages
};

class PageReader {
 public:
  static constexpr int32_t kMaxPageSize = 512 << 20;

  // `context` names the column in errors (e.g. "file.parquet: row group 0: column a.b").
  // `created_by` is the file's writer: parquet-mr before 1.2.9 left the dictionary page header
  // out of the chunk size, so chunks of those files are read with some slack.
  static Result<std::unique_ptr<PageReader>> Make(const RandomAccessSource& source,
                                                  const ColumnMetaData& metadata,
                                                  std::string context,
                                                  std::string_view created_by = {});

  // The next dictionary or data page, or nullopt after the last one.
  Result<std::optional<Page>> Next();

  const std::string& context() const { return context_; }

 private:
  PageReader(std::vector<std::byte> chunk, int64_t chunk_offset, Codec codec, std::string context)
      : chunk_(std::move(chunk)),
        chunk_offset_(chunk_offset),
        codec_(codec),
        context_(std::move(context)) {}
  Result<std::optional<Page>> NextPage();

  std::vector<std::byte> chunk_;
  int64_t chunk_offset_;
  Codec codec_;
  std::string context_;
  size_t pos_ = 0;
};

}  // namespace floe::parquet
