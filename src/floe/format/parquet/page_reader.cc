#include "floe/format/parquet/page_reader.h"

#include <algorithm>
#include <tuple>

#include "floe/format/compression/codec.h"
#include "floe/format/parquet/metadata_thrift.h"
#include "floe/format/parquet/source.h"
#include "floe/util/crc32.h"

namespace floe::parquet {

namespace {

Result<compression::Codec> ToCompressionCodec(Codec codec) {
  switch (codec) {
    case Codec::kUncompressed:
      return compression::Codec::kUncompressed;
    case Codec::kSnappy:
      return compression::Codec::kSnappy;
    case Codec::kGzip:
      return compression::Codec::kGzip;
    case Codec::kBrotli:
      return compression::Codec::kBrotli;
    case Codec::kLz4:
      return compression::Codec::kLz4Hadoop;
    case Codec::kZstd:
      return compression::Codec::kZstd;
    case Codec::kLz4Raw:
      return compression::Codec::kLz4Raw;
    case Codec::kLzo:
      break;
  }
  return Unsupported("compression codec {} is not supported", CodecName(codec));
}

// Whether the writer is parquet-mr older than 1.2.9 ("parquet-mr version 1.2.5-cdh4.5.0 (build )").
bool IsOldParquetMr(std::string_view created_by) {
  constexpr std::string_view kPrefix = "parquet-mr version ";
  if (!created_by.starts_with(kPrefix)) return false;
  int parts[3] = {0, 0, 0};
  size_t i = kPrefix.size();
  for (int p = 0; p < 3; ++p) {
    if (i >= created_by.size() || created_by[i] < '0' || created_by[i] > '9') return false;
    while (i < created_by.size() && created_by[i] >= '0' && created_by[i] <= '9' &&
           parts[p] < 100000) {
      parts[p] = parts[p] * 10 + (created_by[i++] - '0');
    }
    if (p < 2) {
      if (i >= created_by.size() || created_by[i] != '.') return false;
      ++i;
    }
  }
  return std::tie(parts[0], parts[1], parts[2]) < std::make_tuple(1, 2, 9);
}

}  // namespace

namespace {

// The selected pages' byte runs (adjacent pages merged), after the bytes in front of the first data
// page (the dictionary page) when there are any.
Result<std::vector<std::pair<int64_t, int64_t>>> SelectedRuns(const PageSelection& selection,
                                                              int64_t start, uint64_t length,
                                                              const std::string& context) {
  std::vector<std::pair<int64_t, int64_t>> runs;  // offset, length
  const auto end = static_cast<uint64_t>(start) + length;
  if (selection.read.size() != selection.pages.size()) {
    return InvalidArgument("{}: page selection of {} flags for {} pages", context,
                           selection.read.size(), selection.pages.size());
  }
  int64_t previous_end = start;
  for (size_t i = 0; i < selection.pages.size(); ++i) {
    const PageLocation& page = selection.pages[i];
    if (page.offset < previous_end || page.compressed_page_size <= 0 ||
        static_cast<uint64_t>(page.offset) + static_cast<uint64_t>(page.compressed_page_size) >
            end) {
      return CorruptData(
          "{}: offset index: page {} at offset {} of {} bytes is out of order or outside the "
          "chunk [{}, {})",
          context, i, page.offset, page.compressed_page_size, start, end);
    }
    if (i == 0 && page.offset > start) runs.emplace_back(start, page.offset - start);
    previous_end = page.offset + page.compressed_page_size;
    if (!selection.read[i]) continue;
    if (!runs.empty() && runs.back().first + runs.back().second == page.offset &&
        (i > 0 && selection.read[i - 1])) {
      runs.back().second += page.compressed_page_size;
    } else {
      runs.emplace_back(page.offset, page.compressed_page_size);
    }
  }
  return runs;
}

}  // namespace

Result<std::unique_ptr<PageReader>> PageReader::Make(const RandomAccessSource& source,
                                                     const ColumnMetaData& metadata,
                                                     std::string context,
                                                     std::string_view created_by,
                                                     const PageSelection* selection) {
  FLOE_RETURN_IF_ERROR_CTX(ToCompressionCodec(metadata.codec), context);
  // Some writers store a dictionary page offset of 0 (or past the data pages) when there is no
  // dictionary: the chunk then starts at the first data page.
  int64_t start = metadata.data_page_offset;
  if (metadata.dictionary_page_offset && *metadata.dictionary_page_offset > 0 &&
      *metadata.dictionary_page_offset < start) {
    start = *metadata.dictionary_page_offset;
  }
  if (start < 0 || metadata.total_compressed_size < 0) {
    return CorruptData("{}: chunk at offset {} of {} bytes", context, start,
                       metadata.total_compressed_size);
  }
  auto length = static_cast<uint64_t>(metadata.total_compressed_size);
  if (IsOldParquetMr(created_by) && static_cast<uint64_t>(start) + length < source.size()) {
    constexpr uint64_t kMaxDictionaryHeaderSize = 100;
    length =
        std::min(length + kMaxDictionaryHeaderSize, source.size() - static_cast<uint64_t>(start));
  }
  std::vector<std::pair<int64_t, int64_t>> runs{{start, static_cast<int64_t>(length)}};
  if (selection != nullptr) {
    FLOE_ASSIGN_OR_RETURN(runs, SelectedRuns(*selection, start, length, context));
  }
  std::vector<Run> checked;
  for (const auto& [offset, size] : runs) {
    const auto begin = static_cast<uint64_t>(offset);
    const auto length = static_cast<uint64_t>(size);
    if (offset < 0 || size < 0 || begin > source.size() || length > source.size() - begin) {
      return CorruptData("{}: {}: range [{}, {}) lies beyond the end of the file ({} bytes)",
                         context, source.name(), offset, offset + size, source.size());
    }
    checked.push_back(Run{offset, length});
  }
  return std::unique_ptr<PageReader>(
      new PageReader(source, std::move(checked), metadata.codec, std::move(context)));
}

Result<std::span<const std::byte>> PageReader::Window(uint64_t n) {
  constexpr uint64_t kWindowSize = 1 << 20;
  if (pos_ < window_pos_ || pos_ + n > window_pos_ + window_.size()) {
    const Run& run = runs_[run_];
    const uint64_t length = std::min(std::max(n, kWindowSize), run.length - pos_);
    window_.resize(static_cast<size_t>(length));
    FLOE_RETURN_IF_ERROR(
        source_.ReadAt(static_cast<uint64_t>(run.offset) + pos_, std::span(window_)));
    window_pos_ = pos_;
  }
  return std::span<const std::byte>(window_).subspan(static_cast<size_t>(pos_ - window_pos_),
                                                     static_cast<size_t>(n));
}

Result<std::optional<Page>> PageReader::Next() {
  while (true) {
    auto page = NextPage();
    if (!page) {
      return std::unexpected(std::move(page.error().AddContext(context_)));
    }
    if (*page && (*page)->header.type == PageType::kIndexPage) continue;
    return page;
  }
}

Result<std::optional<Page>> PageReader::NextPage() {
  while (run_ < runs_.size() && pos_ >= runs_[run_].length) {
    ++run_;
    pos_ = 0;
    window_.clear();
    window_pos_ = 0;
  }
  if (run_ >= runs_.size()) return std::nullopt;
  const uint64_t run_length = runs_[run_].length;
  int64_t offset = runs_[run_].offset + static_cast<int64_t>(pos_);
  // Headers are small, but statistics can make them long: widen the window until one decodes.
  constexpr uint64_t kHeaderGuess = 16 << 10;
  uint64_t header_bytes = std::min(kHeaderGuess, run_length - pos_);
  auto decoded = [&]() -> Result<DecodedPageHeader> {
    while (true) {
      FLOE_ASSIGN_OR_RETURN(std::span<const std::byte> bytes, Window(header_bytes));
      auto header = DecodePageHeader(bytes);
      if (header || header_bytes == run_length - pos_) return header;
      header_bytes = std::min(header_bytes * 4, run_length - pos_);
    }
  }();
  if (!decoded) {
    return std::unexpected(
        std::move(decoded.error().AddContext(fmt::format("page header at offset {}", offset))));
  }
  Page page;
  page.header = decoded->header;
  page.offset = offset;
  pos_ += decoded->size;
  const PageHeader& h = page.header;
  if (h.compressed_page_size < 0 ||
      static_cast<uint64_t>(h.compressed_page_size) > run_length - pos_) {
    return CorruptData("page at offset {}: {} compressed bytes, the chunk has {} left", offset,
                       h.compressed_page_size, run_length - pos_);
  }
  if (h.uncompressed_page_size < 0) {
    return CorruptData("page at offset {}: uncompressed size {}", offset, h.uncompressed_page_size);
  }
  if (h.uncompressed_page_size > kMaxPageSize) {
    return ResourceExhausted("page at offset {}: {} bytes uncompressed, more than the limit of {}",
                             offset, h.uncompressed_page_size, kMaxPageSize);
  }
  FLOE_ASSIGN_OR_RETURN(std::span<const std::byte> stored,
                        Window(static_cast<uint64_t>(h.compressed_page_size)));
  pos_ += stored.size();
  if (h.crc && Crc32(stored) != static_cast<uint32_t>(*h.crc)) {
    return CorruptData("page at offset {}: CRC mismatch (stored {:08x}, computed {:08x})", offset,
                       static_cast<uint32_t>(*h.crc), Crc32(stored));
  }
  switch (h.type) {
    case PageType::kDataPage:
      if (!h.data_page_header)
        return CorruptData("data page at offset {} without its header", offset);
      break;
    case PageType::kDataPageV2:
      if (!h.data_page_header_v2) {
        return CorruptData("data page v2 at offset {} without its header", offset);
      }
      break;
    case PageType::kDictionaryPage:
      if (!h.dictionary_page_header) {
        return CorruptData("dictionary page at offset {} without its header", offset);
      }
      break;
    case PageType::kIndexPage:
      return page;
    default:
      return CorruptData("page at offset {} has unknown type {}", offset,
                         static_cast<int32_t>(h.type));
  }
  FLOE_ASSIGN_OR_RETURN(compression::Codec codec, ToCompressionCodec(codec_));
  size_t levels = 0;
  bool compressed = codec != compression::Codec::kUncompressed;
  if (h.type == PageType::kDataPageV2) {
    const DataPageHeaderV2& v2 = *h.data_page_header_v2;
    if (v2.definition_levels_byte_length < 0 || v2.repetition_levels_byte_length < 0) {
      return CorruptData("data page v2 at offset {}: negative level lengths", offset);
    }
    levels = static_cast<size_t>(v2.definition_levels_byte_length) +
             static_cast<size_t>(v2.repetition_levels_byte_length);
    if (levels > stored.size() || levels > static_cast<size_t>(h.uncompressed_page_size)) {
      return CorruptData("data page v2 at offset {}: {} bytes of levels in a page of {}", offset,
                         levels, stored.size());
    }
    compressed = compressed && v2.is_compressed;
  }
  if (!compressed && stored.size() != static_cast<size_t>(h.uncompressed_page_size)) {
    return CorruptData("uncompressed page at offset {}: {} bytes stored, {} declared", offset,
                       stored.size(), h.uncompressed_page_size);
  }
  if (compressed) {
    // A damaged size must not cost its allocation: the codec knows what it can produce.
    const size_t most = compression::MaxDecompressedSize(codec, stored.subspan(levels));
    if (static_cast<size_t>(h.uncompressed_page_size) - levels > most) {
      return CorruptData("page at offset {}: {} bytes uncompressed cannot come from {} {} bytes",
                         offset, h.uncompressed_page_size, stored.size(),
                         compression::CodecName(codec));
    }
  }
  page.data.resize(static_cast<size_t>(h.uncompressed_page_size));
  std::copy_n(stored.begin(), levels, page.data.begin());
  std::span<const std::byte> body = stored.subspan(levels);
  std::span<std::byte> out = std::span(page.data).subspan(levels);
  if (compressed) {
    // An empty v2 page may store no compressed bytes at all.
    if (!(body.empty() && out.empty())) {
      auto status = compression::DecompressInto(codec, body, out);
      if (!status) {
        return std::unexpected(std::move(
            status.error().AddContext(fmt::format("page at offset {}: decompressing", offset))));
      }
    }
  } else {
    std::copy(body.begin(), body.end(), out.begin());
  }
  return page;
}

}  // namespace floe::parquet
