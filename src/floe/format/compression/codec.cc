#include "floe/format/compression/codec.h"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <lz4.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>

namespace floe::compression {
namespace {

constexpr size_t kInitialGrowth = 64 * 1024;
// zlib counts in 32-bit units; a single Avro block or Parquet page is far below this.
constexpr size_t kMaxZlibInput = std::numeric_limits<uInt>::max();

// Where decompressed bytes go: either a caller buffer of exactly the expected size, or the tail of
// a vector that grows geometrically up to a limit. When no room is left, streaming decoders get a
// one-byte probe window, so a stream that would produce more than allowed is noticed instead of
// being silently cut off.
class Output {
 public:
  struct Window {
    std::byte* data;
    size_t size;
    bool probe;
  };

  explicit Output(std::span<std::byte> fixed) : fixed_(fixed), growing_(nullptr), limit_(0) {}
  Output(std::vector<std::byte>& out, size_t limit)
      : growing_(&out), base_(out.size()), limit_(limit) {}

  std::byte* next() {
    return growing_ ? growing_->data() + base_ + produced_ : fixed_.data() + produced_;
  }
  size_t available() const { return capacity() - produced_; }
  // How many more bytes may be produced at most.
  size_t room() const { return (growing_ ? limit_ : fixed_.size()) - produced_; }
  size_t produced() const { return produced_; }
  void Advance(size_t n) { produced_ += n; }
  // Forgets output after the first n bytes, to retry a different interpretation of the input.
  void Rewind(size_t n) { produced_ = n; }
  bool fixed() const { return growing_ == nullptr; }
  size_t fixed_size() const { return fixed_.size(); }

  // Room for the next streaming step: free space, grown space, or the probe byte.
  Window NextWindow() {
    if (available() == 0 && growing_ != nullptr && capacity() < limit_) {
      GrowTo(std::min(limit_, std::max(kInitialGrowth, capacity() * 2)));
    }
    if (available() > 0) return {next(), available(), false};
    return {&probe_, 1, true};
  }
  Status Commit(const Window& window, size_t written) {
    if (window.probe) return written > 0 ? Overflow() : Ok();
    produced_ += written;
    return Ok();
  }

  // Makes at least n bytes available, or fails when that would pass the expected size or limit.
  Status Ensure(size_t n) {
    if (n > room()) return Overflow();
    if (available() < n) GrowTo(std::max(produced_ + n, std::min(limit_, capacity() * 2)));
    return Ok();
  }

  Status Overflow() const {
    if (growing_ == nullptr) {
      return CorruptData("decompressed data is larger than the expected {} bytes", fixed_.size());
    }
    return ResourceExhausted("decompressed data exceeds the limit of {} bytes", limit_);
  }

  Status Finish() {
    if (growing_ != nullptr) {
      growing_->resize(base_ + produced_);
      return Ok();
    }
    if (produced_ != fixed_.size()) {
      return CorruptData("decompressed {} bytes, expected {}", produced_, fixed_.size());
    }
    return Ok();
  }

 private:
  size_t capacity() const { return growing_ ? growing_->size() - base_ : fixed_.size(); }
  void GrowTo(size_t cap) {
    // reserve first so that the vector holds exactly what was asked, never a doubled capacity.
    growing_->reserve(base_ + cap);
    growing_->resize(base_ + cap);
  }

  std::span<std::byte> fixed_;
  std::vector<std::byte>* growing_;
  size_t base_ = 0;
  size_t limit_;
  size_t produced_ = 0;
  std::byte probe_{};
};

const char* Chars(std::span<const std::byte> s) { return reinterpret_cast<const char*>(s.data()); }

template <typename T>
T* As(std::byte* p) {
  return reinterpret_cast<T*>(p);
}

// ---- deflate / gzip

Status Inflate(bool gzip, std::span<const std::byte> input, Output& out) {
  if (input.size() > kMaxZlibInput) return ResourceExhausted("compressed block too large for zlib");
  z_stream zs{};
  if (inflateInit2(&zs, gzip ? 15 + 16 : -15) != Z_OK) return InternalError("inflateInit2 failed");
  std::unique_ptr<z_stream, decltype(&inflateEnd)> guard(&zs, &inflateEnd);
  zs.next_in = const_cast<Bytef*>(reinterpret_cast<const Bytef*>(input.data()));
  zs.avail_in = static_cast<uInt>(input.size());
  while (true) {
    Output::Window window = out.NextWindow();
    size_t size = std::min(window.size, kMaxZlibInput);
    zs.next_out = reinterpret_cast<Bytef*>(window.data);
    zs.avail_out = static_cast<uInt>(size);
    int ret = inflate(&zs, Z_NO_FLUSH);
    FLOE_RETURN_IF_ERROR(out.Commit(window, size - zs.avail_out));
    if (ret == Z_STREAM_END) {
      // Parquet GZIP pages may hold several gzip members back to back; raw deflate (Avro) ends at
      // the end of its stream, and some writers leave checksum bytes after it, which are ignored.
      if (gzip && zs.avail_in > 0) {
        if (inflateReset(&zs) != Z_OK) return InternalError("inflateReset failed");
        continue;
      }
      break;
    }
    if (ret == Z_OK) continue;
    if (ret == Z_BUF_ERROR && zs.avail_in == 0) {
      return CorruptData("{} stream is truncated", gzip ? "gzip" : "deflate");
    }
    if (ret == Z_BUF_ERROR && !window.probe) continue;  // the output window was full
    return CorruptData("{} stream is corrupt: {}", gzip ? "gzip" : "deflate",
                       zs.msg != nullptr ? zs.msg : "unknown zlib error");
  }
  return out.Finish();
}

Status Deflate(bool gzip, std::span<const std::byte> input, std::vector<std::byte>& out,
               int level) {
  if (input.size() > kMaxZlibInput) return ResourceExhausted("block too large for zlib");
  if (level == kDefaultLevel) level = Z_DEFAULT_COMPRESSION;
  if (level < -1 || level > 9) return InvalidArgument("deflate level {} is not in 0..9", level);
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, gzip ? 15 + 16 : -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return InternalError("deflateInit2 failed");
  }
  std::unique_ptr<z_stream, decltype(&deflateEnd)> guard(&zs, &deflateEnd);
  size_t base = out.size();
  size_t bound = deflateBound(&zs, static_cast<uLong>(input.size()));
  out.resize(base + bound);
  zs.next_in = const_cast<Bytef*>(reinterpret_cast<const Bytef*>(input.data()));
  zs.avail_in = static_cast<uInt>(input.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data() + base);
  zs.avail_out = static_cast<uInt>(bound);
  if (deflate(&zs, Z_FINISH) != Z_STREAM_END) return InternalError("deflate did not finish");
  out.resize(base + bound - zs.avail_out);
  return Ok();
}

// ---- zstd

Status ZstdDecompress(std::span<const std::byte> input, Output& out) {
  // Reused per thread, as for compression; a reset drops what a failed or streamed frame left.
  thread_local std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx(ZSTD_createDCtx(),
                                                                         &ZSTD_freeDCtx);
  if (!dctx) return ResourceExhausted("cannot allocate a zstd context");
  ZSTD_DCtx_reset(dctx.get(), ZSTD_reset_session_only);
  if (out.fixed()) {
    size_t n =
        ZSTD_decompressDCtx(dctx.get(), out.next(), out.available(), input.data(), input.size());
    if (ZSTD_isError(n)) return CorruptData("zstd: {}", ZSTD_getErrorName(n));
    out.Advance(n);
    return out.Finish();
  }
  ZSTD_inBuffer in{input.data(), input.size(), 0};
  size_t pending = 1;
  while (true) {
    Output::Window window = out.NextWindow();
    ZSTD_outBuffer ob{window.data, window.size, 0};
    pending = ZSTD_decompressStream(dctx.get(), &ob, &in);
    if (ZSTD_isError(pending)) return CorruptData("zstd: {}", ZSTD_getErrorName(pending));
    FLOE_RETURN_IF_ERROR(out.Commit(window, ob.pos));
    if (in.pos == in.size) {
      if (pending == 0) break;
      if (ob.pos < ob.size) return CorruptData("zstd stream is truncated");
    }
  }
  return out.Finish();
}

Status ZstdCompress(std::span<const std::byte> input, std::vector<std::byte>& out, int level) {
  if (level == kDefaultLevel) level = ZSTD_CLEVEL_DEFAULT;
  if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
    return InvalidArgument("zstd level {} is not in {}..{}", level, ZSTD_minCLevel(),
                           ZSTD_maxCLevel());
  }
  size_t base = out.size();
  size_t bound = ZSTD_compressBound(input.size());
  out.resize(base + bound);
  // One context per thread, reused: creating one per page costs an allocation and the clearing of
  // its tables, a measurable share of writing small pages.
  thread_local std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx(ZSTD_createCCtx(),
                                                                         &ZSTD_freeCCtx);
  if (cctx == nullptr) return ResourceExhausted("zstd: cannot create a compression context");
  size_t n =
      ZSTD_compressCCtx(cctx.get(), out.data() + base, bound, input.data(), input.size(), level);
  if (ZSTD_isError(n)) return InternalError("zstd: {}", ZSTD_getErrorName(n));
  out.resize(base + n);
  return Ok();
}

// ---- snappy

Status SnappyDecompress(std::span<const std::byte> input, Output& out) {
  size_t length = 0;
  if (!snappy::GetUncompressedLength(Chars(input), input.size(), &length)) {
    return CorruptData("snappy block has a corrupt length header");
  }
  if (out.fixed()) {
    if (length != out.fixed_size()) {
      return CorruptData("snappy block holds {} bytes, expected {}", length, out.fixed_size());
    }
  }
  FLOE_RETURN_IF_ERROR(out.Ensure(length));
  if (length == 0) return out.Finish();
  if (!snappy::RawUncompress(Chars(input), input.size(), As<char>(out.next()))) {
    return CorruptData("snappy block is corrupt");
  }
  out.Advance(length);
  return out.Finish();
}

Status SnappyCompress(std::span<const std::byte> input, std::vector<std::byte>& out) {
  size_t base = out.size();
  out.resize(base + snappy::MaxCompressedLength(input.size()));
  size_t n = 0;
  snappy::RawCompress(Chars(input), input.size(), As<char>(out.data() + base), &n);
  out.resize(base + n);
  return Ok();
}

// ---- lz4

constexpr size_t kMaxLz4Input = LZ4_MAX_INPUT_SIZE;

// LZ4 cannot expand a byte more than 255-fold; a block that fails to decode into that much room is
// corrupt rather than short of space.
size_t Lz4MaxExpansion(size_t compressed) { return compressed * 255 + 16; }

Status Lz4RawDecompress(std::span<const std::byte> input, Output& out) {
  if (input.size() > kMaxLz4Input) return ResourceExhausted("LZ4 block too large");
  if (out.fixed()) {
    int n = LZ4_decompress_safe(Chars(input), As<char>(out.next()), static_cast<int>(input.size()),
                                static_cast<int>(std::min<size_t>(out.available(), INT32_MAX)));
    if (n < 0) return CorruptData("LZ4 block is corrupt or larger than {} bytes", out.fixed_size());
    out.Advance(static_cast<size_t>(n));
    return out.Finish();
  }
  size_t ceiling = std::min(out.room(), Lz4MaxExpansion(input.size()));
  size_t want = std::min(ceiling, std::max(kInitialGrowth, input.size() * 4));
  std::byte empty{};
  while (true) {
    FLOE_RETURN_IF_ERROR(out.Ensure(want));
    char* dst = want == 0 ? As<char>(&empty) : As<char>(out.next());
    int n = LZ4_decompress_safe(Chars(input), dst, static_cast<int>(input.size()),
                                static_cast<int>(std::min<size_t>(want, INT32_MAX)));
    if (n >= 0) {
      out.Advance(static_cast<size_t>(n));
      return out.Finish();
    }
    if (want >= ceiling) {
      if (ceiling == out.room()) return out.Overflow();
      return CorruptData("LZ4 block is corrupt");
    }
    want = std::min(ceiling, want * 2);
  }
}

Status Lz4RawCompress(std::span<const std::byte> input, std::vector<std::byte>& out) {
  if (input.size() > kMaxLz4Input) return ResourceExhausted("block too large for LZ4");
  size_t base = out.size();
  int bound = LZ4_compressBound(static_cast<int>(input.size()));
  out.resize(base + static_cast<size_t>(bound));
  int n = LZ4_compress_default(Chars(input), As<char>(out.data() + base),
                               static_cast<int>(input.size()), bound);
  if (n <= 0) return InternalError("LZ4 compression failed");
  out.resize(base + static_cast<size_t>(n));
  return Ok();
}

uint32_t LoadBigEndian32(const std::byte* p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

void AppendBigEndian32(std::vector<std::byte>& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(std::byte((v >> shift) & 0xFF));
}

// Hadoop's framing: repeated [big-endian uncompressed size][big-endian compressed size][LZ4 block].
// Returns false, with nothing produced, when the input does not parse as such frames.
Result<bool> TryLz4HadoopDecompress(std::span<const std::byte> input, Output& out) {
  size_t start = out.produced();
  std::span<const std::byte> rest = input;
  auto not_framed = [&] {
    out.Rewind(start);
    return false;
  };
  while (!rest.empty()) {
    if (rest.size() < 8) return not_framed();
    uint32_t raw_size = LoadBigEndian32(rest.data());
    uint32_t compressed_size = LoadBigEndian32(rest.data() + 4);
    rest = rest.subspan(8);
    if (compressed_size > rest.size() || raw_size > INT32_MAX) return not_framed();
    if (out.fixed() && raw_size > out.available()) return not_framed();
    if (!out.fixed() && raw_size > Lz4MaxExpansion(compressed_size)) return not_framed();
    if (raw_size > out.room()) return std::unexpected(out.Overflow().error());
    FLOE_RETURN_IF_ERROR(out.Ensure(raw_size));
    int n = LZ4_decompress_safe(Chars(rest), As<char>(out.next()),
                                static_cast<int>(compressed_size), static_cast<int>(raw_size));
    if (n < 0 || static_cast<uint32_t>(n) != raw_size) return not_framed();
    out.Advance(raw_size);
    rest = rest.subspan(compressed_size);
  }
  return true;
}

Status Lz4HadoopDecompress(std::span<const std::byte> input, Output& out) {
  FLOE_ASSIGN_OR_RETURN(bool framed, TryLz4HadoopDecompress(input, out));
  if (framed) return out.Finish();
  // Older parquet-cpp wrote a bare LZ4 block under the same codec id, so readers accept both.
  return Lz4RawDecompress(input, out);
}

Status Lz4HadoopCompress(std::span<const std::byte> input, std::vector<std::byte>& out) {
  if (input.size() > kMaxLz4Input) return ResourceExhausted("block too large for LZ4");
  size_t header = out.size();
  out.resize(header + 8);
  FLOE_RETURN_IF_ERROR(Lz4RawCompress(input, out));
  size_t compressed = out.size() - header - 8;
  std::vector<std::byte> sizes;
  AppendBigEndian32(sizes, static_cast<uint32_t>(input.size()));
  AppendBigEndian32(sizes, static_cast<uint32_t>(compressed));
  std::memcpy(out.data() + header, sizes.data(), 8);
  return Ok();
}

// ---- brotli

Status BrotliDecompress(std::span<const std::byte> input, Output& out) {
  std::unique_ptr<BrotliDecoderState, decltype(&BrotliDecoderDestroyInstance)> state(
      BrotliDecoderCreateInstance(nullptr, nullptr, nullptr), &BrotliDecoderDestroyInstance);
  if (!state) return ResourceExhausted("cannot allocate a brotli decoder");
  size_t available_in = input.size();
  const auto* next_in = reinterpret_cast<const uint8_t*>(input.data());
  while (true) {
    Output::Window window = out.NextWindow();
    size_t available_out = window.size;
    auto* next_out = reinterpret_cast<uint8_t*>(window.data);
    BrotliDecoderResult r = BrotliDecoderDecompressStream(state.get(), &available_in, &next_in,
                                                          &available_out, &next_out, nullptr);
    FLOE_RETURN_IF_ERROR(out.Commit(window, window.size - available_out));
    switch (r) {
      case BROTLI_DECODER_RESULT_SUCCESS:
        if (available_in != 0)
          return CorruptData("brotli stream has {} trailing bytes", available_in);
        return out.Finish();
      case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
        if (window.probe) return out.Overflow();
        continue;
      case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
        return CorruptData("brotli stream is truncated");
      case BROTLI_DECODER_RESULT_ERROR:
        return CorruptData("brotli stream is corrupt: {}",
                           BrotliDecoderErrorString(BrotliDecoderGetErrorCode(state.get())));
    }
  }
}

Status BrotliCompress(std::span<const std::byte> input, std::vector<std::byte>& out, int level) {
  // Brotli's own default (11) is far slower than the other codecs; 8 is what Arrow writes.
  if (level == kDefaultLevel) level = 8;
  if (level < BROTLI_MIN_QUALITY || level > BROTLI_MAX_QUALITY) {
    return InvalidArgument("brotli level {} is not in 0..11", level);
  }
  size_t base = out.size();
  size_t bound = BrotliEncoderMaxCompressedSize(input.size());
  if (bound == 0) return ResourceExhausted("block too large for brotli");
  out.resize(base + bound);
  size_t n = bound;
  if (!BrotliEncoderCompress(level, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, input.size(),
                             reinterpret_cast<const uint8_t*>(input.data()), &n,
                             reinterpret_cast<uint8_t*>(out.data() + base))) {
    return InternalError("brotli compression failed");
  }
  out.resize(base + n);
  return Ok();
}

// Deflate cannot expand a byte more than 1032-fold; gzip members add their headers on top.
size_t DeflateMaxExpansion(size_t compressed) { return compressed * 1032 + 1024; }

Status DecompressTo(Codec codec, std::span<const std::byte> input, Output& out) {
  switch (codec) {
    case Codec::kUncompressed:
      if (out.fixed() && input.size() != out.fixed_size()) {
        return CorruptData("uncompressed data holds {} bytes, expected {}", input.size(),
                           out.fixed_size());
      }
      FLOE_RETURN_IF_ERROR(out.Ensure(input.size()));
      if (!input.empty()) std::memcpy(out.next(), input.data(), input.size());
      out.Advance(input.size());
      return out.Finish();
    case Codec::kDeflate:
      return Inflate(false, input, out);
    case Codec::kGzip:
      return Inflate(true, input, out);
    case Codec::kZstd:
      return ZstdDecompress(input, out);
    case Codec::kSnappy:
      return SnappyDecompress(input, out);
    case Codec::kLz4Raw:
      return Lz4RawDecompress(input, out);
    case Codec::kLz4Hadoop:
      return Lz4HadoopDecompress(input, out);
    case Codec::kBrotli:
      return BrotliDecompress(input, out);
  }
  return InvalidArgument("unknown codec {}", static_cast<int>(codec));
}

}  // namespace

std::string_view CodecName(Codec codec) {
  switch (codec) {
    case Codec::kUncompressed:
      return "uncompressed";
    case Codec::kDeflate:
      return "deflate";
    case Codec::kGzip:
      return "gzip";
    case Codec::kZstd:
      return "zstd";
    case Codec::kSnappy:
      return "snappy";
    case Codec::kLz4Raw:
      return "lz4_raw";
    case Codec::kLz4Hadoop:
      return "lz4_hadoop";
    case Codec::kBrotli:
      return "brotli";
  }
  return "unknown";
}

Status Compress(Codec codec, std::span<const std::byte> input, std::vector<std::byte>& out,
                int level) {
  switch (codec) {
    case Codec::kUncompressed:
      out.insert(out.end(), input.begin(), input.end());
      return Ok();
    case Codec::kDeflate:
      return Deflate(false, input, out, level);
    case Codec::kGzip:
      return Deflate(true, input, out, level);
    case Codec::kZstd:
      return ZstdCompress(input, out, level);
    case Codec::kSnappy:
      return SnappyCompress(input, out);
    case Codec::kLz4Raw:
      return Lz4RawCompress(input, out);
    case Codec::kLz4Hadoop:
      return Lz4HadoopCompress(input, out);
    case Codec::kBrotli:
      return BrotliCompress(input, out, level);
  }
  return InvalidArgument("unknown codec {}", static_cast<int>(codec));
}

Status DecompressInto(Codec codec, std::span<const std::byte> input, std::span<std::byte> output) {
  Output out(output);
  FLOE_RETURN_IF_ERROR_CTX(DecompressTo(codec, input, out), CodecName(codec));
  return Ok();
}

Status Decompress(Codec codec, std::span<const std::byte> input, size_t max_output,
                  std::vector<std::byte>& out) {
  size_t base = out.size();
  Output sink(out, max_output);
  Status status = DecompressTo(codec, input, sink);
  if (!status) {
    out.resize(base);
    return std::unexpected(std::move(status.error().AddContext(CodecName(codec))));
  }
  return Ok();
}

size_t MaxDecompressedSize(Codec codec, std::span<const std::byte> input) {
  switch (codec) {
    case Codec::kUncompressed:
      return input.size();
    case Codec::kDeflate:
    case Codec::kGzip:
      return DeflateMaxExpansion(input.size());
    case Codec::kLz4Raw:
    case Codec::kLz4Hadoop:
      return Lz4MaxExpansion(input.size());
    case Codec::kSnappy: {
      size_t length = 0;
      if (!snappy::GetUncompressedLength(Chars(input), input.size(), &length)) return SIZE_MAX;
      return length;
    }
    case Codec::kZstd: {
      // One frame that records its size: exactly that size.
      const unsigned long long size = ZSTD_getFrameContentSize(input.data(), input.size());
      if (size == ZSTD_CONTENTSIZE_UNKNOWN || size == ZSTD_CONTENTSIZE_ERROR) return SIZE_MAX;
      if (ZSTD_findFrameCompressedSize(input.data(), input.size()) != input.size()) return SIZE_MAX;
      return static_cast<size_t>(size);
    }
    case Codec::kBrotli:
      break;
  }
  return SIZE_MAX;
}

}  // namespace floe::compression
