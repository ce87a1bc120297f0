#include <algorithm>

#include "floe/format/compression/codec.h"
#include "floe/format/orc/stream_internal.h"

namespace floe::orc {

Result<StreamBytes> DecompressStream(const Compression& compression, std::span<const std::byte> in,
                                     size_t max_output) {
  StreamBytes out;
  if (compression.kind == CompressionKind::kNone) {
    if (in.size() > max_output) {
      return ResourceExhausted("a stream of {} bytes is over the limit of {}", in.size(),
                               max_output);
    }
    out.view = in;
    return out;
  }
  compression::Codec codec;
  switch (compression.kind) {
    case CompressionKind::kZlib:
      codec = compression::Codec::kDeflate;
      break;
    case CompressionKind::kSnappy:
      codec = compression::Codec::kSnappy;
      break;
    case CompressionKind::kLz4:
      codec = compression::Codec::kLz4Raw;
      break;
    case CompressionKind::kZstd:
      codec = compression::Codec::kZstd;
      break;
    default:
      return Unsupported("ORC compression {} is not supported",
                         CompressionKindName(compression.kind));
  }
  size_t pos = 0;
  while (pos < in.size()) {
    if (in.size() - pos < 3)
      return CorruptData("a compression chunk header is cut off at offset {}", pos);
    const uint32_t header = static_cast<uint32_t>(in[pos]) |
                            static_cast<uint32_t>(in[pos + 1]) << 8 |
                            static_cast<uint32_t>(in[pos + 2]) << 16;
    const size_t length = header >> 1;
    const bool original = (header & 1) != 0;
    if (length > in.size() - pos - 3) {
      return CorruptData(
          "a compression chunk of {} bytes at offset {} runs past the stream's {} bytes", length,
          pos, in.size());
    }
    auto chunk = in.subspan(pos + 3, length);
    const size_t room = max_output - out.owned.size();
    if (original) {
      if (length > room) {
        return ResourceExhausted("a stream decompresses to more than the limit of {} bytes",
                                 max_output);
      }
      out.owned.insert(out.owned.end(), chunk.begin(), chunk.end());
    } else {
      const size_t limit = std::min<uint64_t>(compression.block_size, room);
      // Grow by doubling: the codec reserves only what one chunk needs, which would copy the
      // stream once per chunk.
      const size_t needed = out.owned.size() + limit;
      if (needed > out.owned.capacity()) {
        out.owned.reserve(std::min(max_output, std::max(needed, 2 * out.owned.capacity())));
      }
      auto status = compression::Decompress(codec, chunk, limit, out.owned);
      if (!status) {
        Error error = std::move(status).error();
        if (error.kind() == ErrorKind::kResourceExhausted && limit == compression.block_size) {
          return CorruptData(
              "the compression chunk at offset {} decompresses to more than the block size {}", pos,
              compression.block_size);
        }
        error.AddContext(fmt::format("compression chunk at offset {}", pos));
        return std::unexpected(std::move(error));
      }
    }
    pos += 3 + length;
  }
  out.is_owned = true;
  return out;
}

}  // namespace floe::orc
