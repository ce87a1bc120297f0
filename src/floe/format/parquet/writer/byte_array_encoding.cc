#include <algorithm>
#include <cstring>
#include <span>
#include <string_view>

#include "floe/format/parquet/encoding/delta_binary_packed.h"
#include "floe/format/parquet/encoding/delta_byte_array.h"
#include "floe/format/parquet/writer/byte_array_encoding_internal.h"
#include "floe/format/parquet/writer/chunk_pages_internal.h"

namespace floe::parquet {
namespace {

// The bytes of the page's first `count` byte arrays.
size_t PrefixBytes(const ByteArrayPage& page, size_t count) {
  if (count == page.lengths.size()) return page.data.size();
  size_t bytes = 0;
  for (size_t i = 0; i < count; ++i) bytes += static_cast<size_t>(page.lengths[i]);
  return bytes;
}

// The bytes each of the page's first `count` byte arrays shares with the one before it.
size_t SharedPrefixBytes(const ByteArrayPage& page, size_t count) {
  size_t shared = 0, at = 0;
  std::string_view previous;
  for (int32_t length : std::span(page.lengths).first(count)) {
    std::string_view value(page.data.data() + at, static_cast<size_t>(length));
    const size_t limit = std::min(previous.size(), value.size());
    size_t k = 0;
    while (k < limit && previous[k] == value[k]) ++k;
    shared += k;
    previous = value;
    at += static_cast<size_t>(length);
  }
  return shared;
}

void EncodeDeltaLengthBytes(const ByteArrayPage& page, size_t count, std::vector<std::byte>& out) {
  auto bytes = std::as_bytes(std::span(page.data)).first(PrefixBytes(page, count));
  EncodeDeltaBinaryPacked<int32_t>(std::span(page.lengths).first(count), out);
  out.insert(out.end(), bytes.begin(), bytes.end());
}

void EncodeDeltaBytes(const ByteArrayPage& page, size_t count, std::vector<std::byte>& out) {
  std::vector<ByteArray> views;
  views.reserve(count);
  size_t at = 0;
  for (int32_t length : std::span(page.lengths).first(count)) {
    views.push_back(std::string_view(page.data).substr(at, static_cast<size_t>(length)));
    at += static_cast<size_t>(length);
  }
  EncodeDeltaByteArray(views, out);
}

void EncodePlainBytes(const ByteArrayPage& page, size_t count, std::vector<std::byte>& out) {
  const size_t start = out.size();
  out.resize(start + PrefixBytes(page, count) + 4 * count);
  std::byte* to = out.data() + start;
  const char* from = page.data.data();
  for (int32_t length : std::span(page.lengths).first(count)) {
    auto n = static_cast<uint32_t>(length);
    std::memcpy(to, &n, 4);
    std::memcpy(to + 4, from, n);
    to += 4 + n;
    from += n;
  }
}

// The page's first `count` byte arrays in `encoding`.
void EncodeBytes(const ByteArrayPage& page, Encoding encoding, size_t count,
                 std::vector<std::byte>& out) {
  if (encoding == Encoding::kDeltaLengthByteArray) {
    EncodeDeltaLengthBytes(page, count, out);
  } else if (encoding == Encoding::kDeltaByteArray) {
    EncodeDeltaBytes(page, count, out);
  } else {
    EncodePlainBytes(page, count, out);
  }
}

}  // namespace

Encoding ByteArrayEncoder::EncodePage(const ByteArrayPage& page, bool chunk_end,
                                      bool delta_encoding, ChunkPages& pages,
                                      std::vector<std::byte>& out) {
  if (delta_encoding && !chosen_) {
    size_t sample = 0, sample_bytes = 0;
    while (sample < page.lengths.size() && sample_bytes < kEncodingProbeBytes) {
      sample_bytes += static_cast<size_t>(page.lengths[sample++]);
    }
    std::vector<std::byte> candidate, scratch;
    auto compressed_size = [&](Encoding e, size_t count) {
      candidate.clear();
      EncodeBytes(page, e, count, candidate);
      return pages.CompressedSize(candidate, scratch);
    };
    chosen_ = compressed_size(Encoding::kDeltaLengthByteArray, sample) <
                      compressed_size(Encoding::kPlain, sample)
                  ? Encoding::kDeltaLengthByteArray
                  : Encoding::kPlain;
    if (SharedPrefixBytes(page, sample) * kSharedPrefixShare >= sample_bytes) {
      const size_t count = chunk_end ? sample : page.lengths.size();
      if (compressed_size(Encoding::kDeltaByteArray, count) < compressed_size(*chosen_, count)) {
        chosen_ = Encoding::kDeltaByteArray;
      }
    }
  }
  Encoding encoding = chosen_.value_or(Encoding::kPlain);
  EncodeBytes(page, encoding, page.lengths.size(), out);
  return encoding;
}

}  // namespace floe::parquet
