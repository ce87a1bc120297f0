#include "floe/format/compression/codec.h"
#include "floe/format/parquet/metadata_thrift.h"
#include "floe/format/parquet/writer/chunk_pages_internal.h"
#include "floe/format/parquet/writer/writer_options.h"
#include "floe/io/file_io.h"

namespace floe::parquet {
namespace {

compression::Codec ToCompressionCodec(Codec codec) {
  switch (codec) {
    case Codec::kSnappy:
      return compression::Codec::kSnappy;
    case Codec::kGzip:
      return compression::Codec::kGzip;
    case Codec::kZstd:
      return compression::Codec::kZstd;
    case Codec::kLz4Raw:
      return compression::Codec::kLz4Raw;
    default:
      return compression::Codec::kUncompressed;
  }
}

}  // namespace

void ChunkPages::CompressInto(std::span<const std::byte> body, std::vector<std::byte>& out) {
  out.clear();
  Status s = compression::Compress(ToCompressionCodec(options_.codec), body, out,
                                   CompressionLevel(options_));
  if (!s && status_) status_ = s;
}

int64_t ChunkPages::EncodePage(PageHeader& header, std::span<const std::byte> body,
                               std::span<const std::byte> levels, std::vector<std::byte>& out) {
  std::span<const std::byte> stored = body;
  if (options_.codec != Codec::kUncompressed) {
    CompressInto(body, compressed_);
    stored = compressed_;
  }
  header.uncompressed_page_size = static_cast<int32_t>(levels.size() + body.size());
  header.compressed_page_size = static_cast<int32_t>(levels.size() + stored.size());
  std::vector<std::byte> encoded = EncodePageHeader(header);
  out.reserve(out.size() + encoded.size() + levels.size() + stored.size());
  out.insert(out.end(), encoded.begin(), encoded.end());
  out.insert(out.end(), levels.begin(), levels.end());
  out.insert(out.end(), stored.begin(), stored.end());
  return static_cast<int64_t>(encoded.size()) + header.uncompressed_page_size;
}

PageLocation ChunkPages::AddDataPage(PageHeader& header, std::span<const std::byte> body,
                                     std::span<const std::byte> levels, int64_t first_row_index) {
  PageLocation location;
  location.offset = bytes_;
  location.first_row_index = first_row_index;
  std::vector<std::byte>& page = pages_.emplace_back();
  uncompressed_ += EncodePage(header, body, levels, page);
  location.compressed_page_size = static_cast<int32_t>(page.size());
  bytes_ += static_cast<int64_t>(page.size());
  return location;
}

size_t ChunkPages::CompressedSize(std::span<const std::byte> body,
                                  std::vector<std::byte>& scratch) {
  if (options_.codec == Codec::kUncompressed) return body.size();
  CompressInto(body, scratch);
  return scratch.size();
}

Status ChunkPages::WriteTo(io::FileWriter& file) const {
  for (const std::vector<std::byte>& page : pages_) FLOE_RETURN_IF_ERROR(file.Write(page));
  return Ok();
}

void ChunkPages::Reset() {
  pages_.clear();
  pages_.shrink_to_fit();
  bytes_ = 0;
  uncompressed_ = 0;
  encodings_.clear();
}

}  // namespace floe::parquet
