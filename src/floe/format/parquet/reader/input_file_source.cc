#include "floe/format/parquet/reader/input_file_source.h"

#include <algorithm>
#include <cstring>
#include <future>
#include <mutex>
#include <vector>

#include "floe/format/parquet/source.h"
#include "floe/io/file_io.h"
#include "floe/io/location.h"
#include "floe/util/thread_pool.h"

namespace floe::parquet {

namespace {

// Ranges closer than this are fetched as one: a request costs about as much as this many bytes.
constexpr uint64_t kCoalesceGap = 256 << 10;
// A piece is at most this long, so that a long range arrives in parallel parts.
constexpr uint64_t kPieceSize = 8 << 20;
// Where the footer is: one fetch holds it unless it is larger.
constexpr uint64_t kTailSize = 64 << 10;
// Fetches in flight at once, over every remote file of the process: they wait on the network.
constexpr size_t kFetchThreads = 16;

ThreadPool& FetchPool() {
  static ThreadPool pool(kFetchThreads);
  return pool;
}

// Sorted, merged across small gaps, and cut into pieces of at most kPieceSize.
std::vector<ByteRange> PlanPieces(std::span<const ByteRange> ranges, uint64_t size) {
  std::vector<ByteRange> sorted;
  for (const ByteRange& range : ranges) {
    uint64_t begin = std::min(range.offset, size);
    uint64_t end = std::min(size, begin + std::min(range.length, size - begin));
    if (end > begin) sorted.push_back({begin, end - begin});
  }
  std::sort(sorted.begin(), sorted.end(),
            [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
  std::vector<ByteRange> merged;
  for (const ByteRange& range : sorted) {
    if (!merged.empty() && range.offset <= merged.back().offset + merged.back().length + kCoalesceGap) {
      uint64_t end =
          std::max(merged.back().offset + merged.back().length, range.offset + range.length);
      merged.back().length = end - merged.back().offset;
    } else {
      merged.push_back(range);
    }
  }
  std::vector<ByteRange> pieces;
  for (const ByteRange& range : merged) {
    uint64_t count = (range.length + kPieceSize - 1) / kPieceSize;
    uint64_t step = (range.length + count - 1) / count;
    for (uint64_t at = 0; at < range.length; at += step) {
      pieces.push_back({range.offset + at, std::min(step, range.length - at)});
    }
  }
  return pieces;
}

class InputFileSource final : public RandomAccessSource {
 public:
  InputFileSource(std::shared_ptr<io::InputFile> file, uint64_t size, bool remote)
      : file_(std::move(file)), size_(size), remote_(remote) {}

  uint64_t size() const override { return size_; }
  const std::string& name() const override { return file_->location(); }

  Status ReadAt(uint64_t offset, std::span<std::byte> out) const override {
    if (offset > size_ || out.size() > size_ - offset) {
      return CorruptData("{}: read of {} bytes at offset {} past the end ({} bytes)", name(),
                         out.size(), offset, size_);
    }
    if (out.empty()) return Ok();
    if (remote_ && FromPieces(offset, out)) return Ok();
    FLOE_ASSIGN_OR_RETURN(size_t read, file_->ReadAt(static_cast<int64_t>(offset), out));
    if (read != out.size()) {
      return IOError("{}: short read of {} bytes at offset {}", name(), read, offset);
    }
    return Ok();
  }

  void WillRead(std::span<const ByteRange> ranges) const override {
    if (!remote_) return;
    std::vector<Piece> announced;
    for (const ByteRange& range : PlanPieces(ranges, size_)) {
      auto fetch = [file = file_, range]() -> Result<std::shared_ptr<std::vector<std::byte>>> {
        auto bytes = std::make_shared<std::vector<std::byte>>(range.length);
        FLOE_ASSIGN_OR_RETURN(size_t read,
                              file->ReadAt(static_cast<int64_t>(range.offset), *bytes));
        if (read != bytes->size()) return IOError("short read");
        return bytes;
      };
      announced.push_back(Piece{range, FetchPool().Submit(std::move(fetch)).share()});
    }
    std::lock_guard lock(mutex_);
    previous_ = std::move(current_);
    current_ = std::move(announced);
  }

 private:
  struct Piece {
    ByteRange range;
    std::shared_future<Result<std::shared_ptr<std::vector<std::byte>>>> bytes;
  };

  // Copies [offset, offset + out.size()) out of the fetched pieces when they hold all of it.
  bool FromPieces(uint64_t offset, std::span<std::byte> out) const {
    const uint64_t end = offset + out.size();
    std::vector<Piece> overlapping;
    {
      std::lock_guard lock(mutex_);
      for (const std::vector<Piece>* pieces : {&current_, &previous_}) {
        for (const Piece& piece : *pieces) {
          if (piece.range.offset < end && offset < piece.range.offset + piece.range.length) {
            overlapping.push_back(piece);
          }
        }
      }
    }
    std::sort(overlapping.begin(), overlapping.end(),
              [](const Piece& a, const Piece& b) { return a.range.offset < b.range.offset; });
    uint64_t at = offset;
    for (const Piece& piece : overlapping) {
      const uint64_t piece_end = piece.range.offset + piece.range.length;
      if (piece.range.offset > at) return false;
      if (piece_end <= at) continue;
      const auto& bytes = piece.bytes.get();
      if (!bytes) return false;
      const uint64_t n = std::min(end, piece_end) - at;
      std::memcpy(out.data() + (at - offset), (*bytes)->data() + (at - piece.range.offset), n);
      at += n;
      if (at == end) return true;
    }
    return false;
  }

  std::shared_ptr<io::InputFile> file_;
  uint64_t size_;
  bool remote_;
  mutable std::mutex mutex_;
  mutable std::vector<Piece> current_;   // the last announcement's pieces
  mutable std::vector<Piece> previous_;  // the one's before
};

}  // namespace

Result<std::unique_ptr<RandomAccessSource>> MakeInputFileSource(
    std::shared_ptr<io::InputFile> file) {
  FLOE_ASSIGN_OR_RETURN(int64_t size, file->Size());
  if (size < 0) return IOError("{}: negative file size {}", file->location(), size);
  std::string_view scheme = io::LocationScheme(file->location());
  const bool remote = !scheme.empty() && scheme != "file";
  auto source =
      std::make_unique<InputFileSource>(std::move(file), static_cast<uint64_t>(size), remote);
  const uint64_t length = static_cast<uint64_t>(size);
  const uint64_t tail = std::min(length, kTailSize);
  const ByteRange ends[] = {{0, std::min<uint64_t>(4, length)}, {length - tail, tail}};
  source->WillRead(ends);
  return source;
}

}  // namespace floe::parquet
