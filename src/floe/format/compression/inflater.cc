#include "floe/format/compression/inflater.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <limits>

namespace floe::compression {

struct Inflater::State {
  z_stream stream{};
  bool initialized = false;
  ~State() {
    if (initialized) inflateEnd(&stream);
  }
};

Inflater::Inflater() : state_(std::make_unique<State>()) {}
Inflater::~Inflater() = default;

Result<std::span<const std::byte>> Inflater::Inflate(std::span<const std::byte> input,
                                                     size_t max_output) {
  constexpr size_t kMaxZlib = std::numeric_limits<uInt>::max();
  if (input.size() > kMaxZlib) return ResourceExhausted("compressed block too large for zlib");
  z_stream& zs = state_->stream;
  if (!state_->initialized) {
    if (inflateInit2(&zs, -15) != Z_OK) return InternalError("inflateInit2 failed");
    state_->initialized = true;
  } else if (inflateReset(&zs) != Z_OK) {
    return InternalError("inflateReset failed");
  }
  max_output = std::min(max_output, kMaxZlib);
  if (capacity_ == 0) {
    // Deflated Avro blocks typically expand 3-5 times; growing from there costs few copies.
    capacity_ = std::min(max_output, std::max<size_t>(64 * 1024, input.size() * 4));
    buffer_ = std::make_unique_for_overwrite<std::byte[]>(capacity_);
  }
  zs.next_in = const_cast<Bytef*>(reinterpret_cast<const Bytef*>(input.data()));
  zs.avail_in = static_cast<uInt>(input.size());
  size_t produced = 0;
  std::byte probe{};
  while (true) {
    // The buffer may be larger than this call's limit, from an earlier call.
    size_t usable = std::min(capacity_, max_output);
    bool probing = produced == usable && usable >= max_output;
    if (produced == usable && !probing) {
      size_t grown = std::min(max_output, std::max<size_t>(capacity_ * 2, 64 * 1024));
      auto bigger = std::make_unique_for_overwrite<std::byte[]>(grown);
      std::memcpy(bigger.get(), buffer_.get(), produced);
      buffer_ = std::move(bigger);
      capacity_ = grown;
    }
    // At the limit, a one-byte probe tells a stream that ends exactly there from one that would
    // produce more.
    Bytef* out = reinterpret_cast<Bytef*>(probing ? &probe : buffer_.get() + produced);
    uInt room = probing ? 1 : static_cast<uInt>(std::min(capacity_, max_output) - produced);
    zs.next_out = out;
    zs.avail_out = room;
    int ret = inflate(&zs, Z_NO_FLUSH);
    size_t written = room - zs.avail_out;
    if (probing && written > 0) {
      return ResourceExhausted("decompressed data exceeds the limit of {} bytes", max_output);
    }
    if (!probing) produced += written;
    if (ret == Z_STREAM_END)
      break;  // bytes after the stream (some writers add a checksum) are ignored
    if (ret == Z_OK) continue;
    if (ret == Z_BUF_ERROR && zs.avail_in == 0) return CorruptData("deflate stream is truncated");
    if (ret == Z_BUF_ERROR && zs.avail_out == 0 && !probing) continue;
    return CorruptData("deflate stream is corrupt: {}",
                       zs.msg != nullptr ? zs.msg : "unknown zlib error");
  }
  return std::span<const std::byte>(buffer_.get(), produced);
}

}  // namespace floe::compression
