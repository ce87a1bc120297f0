#include "floe/format/compression/inflater.h"

#include <libdeflate.h>

#include <algorithm>

namespace floe::compression {

struct Inflater::State {
  libdeflate_decompressor* decompressor = nullptr;
  ~State() {
    if (decompressor != nullptr) libdeflate_free_decompressor(decompressor);
  }
};

Inflater::Inflater() : state_(std::make_unique<State>()) {}
Inflater::~Inflater() = default;

// libdeflate decompresses a whole stream in one call, faster than zlib's inflate, but it needs the
// output's room up front: a stream that does not fit is
// decompressed again into a buffer twice as large (the buffer is kept, so this happens while it
// grows to the size of the largest block, not on every block).
Result<std::span<const std::byte>> Inflater::Inflate(std::span<const std::byte> input,
                                                     size_t max_output) {
  if (state_->decompressor == nullptr) {
    state_->decompressor = libdeflate_alloc_decompressor();
    if (state_->decompressor == nullptr) return ResourceExhausted("no memory for a decompressor");
  }
  if (capacity_ == 0) {
    // Deflated Avro blocks typically expand 3-5 times.
    capacity_ = std::min(max_output, std::max<size_t>(64 * 1024, input.size() * 4));
    buffer_ = std::make_unique_for_overwrite<std::byte[]>(capacity_);
  }
  while (true) {
    // The buffer may be larger than this call's limit, from an earlier call.
    const size_t room = std::min(capacity_, max_output);
    size_t consumed = 0;
    size_t produced = 0;
    // Bytes after the stream (some writers add a checksum) are ignored.
    switch (libdeflate_deflate_decompress_ex(state_->decompressor, input.data(), input.size(),
                                             buffer_.get(), room, &consumed, &produced)) {
      case LIBDEFLATE_SUCCESS:
        return std::span<const std::byte>(buffer_.get(), produced);
      case LIBDEFLATE_INSUFFICIENT_SPACE:
        if (room >= max_output) {
          return ResourceExhausted("decompressed data exceeds the limit of {} bytes", max_output);
        }
        capacity_ = std::min(max_output, capacity_ * 2);
        buffer_ = std::make_unique_for_overwrite<std::byte[]>(capacity_);
        continue;
      default:
        return CorruptData("deflate stream is corrupt or truncated");
    }
  }
}

}  // namespace floe::compression
