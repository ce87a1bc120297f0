#pragma once

// Reads the pages of one column chunk: the chunk's bytes are read from the source as the pages
// reach them, a window of about a megabyte (or one page, when larger) at a time, so memory is a
// page and not a chunk; each page header is decoded, its CRC checked when the writer stored one,
// and its body decompressed with the chunk's codec (for data page v2, only the part after the
// levels, and only when the header says it is compressed). Index pages are skipped. Every size from
// the file is checked against the chunk before use; a page may not declare more than kMaxPageSize
// bytes uncompressed, nor more than its codec can produce from the bytes stored (so a damaged size
// is refused before it is allocated).
//
// With a page selection (from the offset index), only the selected data pages are read from the
// source and decompressed, besides the dictionary page in front of the first data page; runs of
// adjacent selected pages are read in one piece. Locations outside the chunk are kCorruptData.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "floe/format/parquet/metadata.h"
#include "floe/util/error.h"

namespace floe::parquet {

class RandomAccessSource;

// Decompressed page bytes. New elements are left uninitialized: the decompressor or copy that
// follows writes them all, and zeroing them first cost a pass over every page.
template <typename T>
struct UninitializedAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
using PageBuffer = std::vector<std::byte, UninitializedAllocator<std::byte>>;

// The data pages of a chunk (its offset index, in file order) and which of them to read.
struct PageSelection {
  std::vector<PageLocation> pages;
  std::vector<bool> read;  // one per page
};

struct Page {
  PageHeader header;
  // The uncompressed page body (for v2: levels then values, all uncompressed).
  PageBuffer data;
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
                                                  std::string_view created_by = {},
                                                  const PageSelection* selection = nullptr);

  // The next dictionary or data page, or nullopt after the last one.
  Result<std::optional<Page>> Next();

  const std::string& context() const { return context_; }
  // Where the chunk's bytes (its last run of them) end in the file, for error messages.
  int64_t end_offset() const {
    return runs_.empty() ? 0 : runs_.back().offset + static_cast<int64_t>(runs_.back().length);
  }

 private:
  // A run of the chunk's bytes in the file (all of it, or the selected pages').
  struct Run {
    int64_t offset = 0;
    uint64_t length = 0;
  };
  PageReader(const RandomAccessSource& source, std::vector<Run> runs, Codec codec,
             std::string context)
      : source_(source), runs_(std::move(runs)), codec_(codec), context_(std::move(context)) {}
  Result<std::optional<Page>> NextPage();
  // Makes bytes [pos_, pos_ + n) of the current run (n at most what the run has left) available
  // in the window, and returns them.
  Result<std::span<const std::byte>> Window(uint64_t n);

  const RandomAccessSource& source_;
  std::vector<Run> runs_;
  Codec codec_;
  std::string context_;
  size_t run_ = 0;
  uint64_t pos_ = 0;  // in the current run
  // Bytes [window_pos_, window_pos_ + window_.size()) of the current run.
  PageBuffer window_;
  uint64_t window_pos_ = 0;
};

}  // namespace floe::parquet
