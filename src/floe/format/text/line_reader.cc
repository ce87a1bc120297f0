#include "floe/format/text/line_reader.h"

#include <algorithm>
#include <cstring>

#include "floe/io/file_io.h"

namespace floe::text {
namespace {

constexpr size_t kBlockBytes = 1 << 20;

}  // namespace

LineReader::LineReader(std::unique_ptr<io::InputFile> file) : file_(std::move(file)) {
  buffer_.resize(kBlockBytes);
}

LineReader::~LineReader() = default;

const std::string& LineReader::location() const { return file_->location(); }

Result<bool> LineReader::Refill() {
  if (size_ < 0) {
    FLOE_ASSIGN_OR_RETURN(size_, file_->Size());
  }
  if (offset_ >= size_) return false;
  size_t unread = end_ - begin_;
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, unread);
    begin_ = 0;
    end_ = unread;
  }
  if (end_ == buffer_.size()) {
    if (buffer_.size() >= kMaxLineBytes) {
      return InvalidArgument("{}: line {}: a line longer than {} bytes", location(),
                             line_number_ + 1, kMaxLineBytes);
    }
    buffer_.resize(buffer_.size() * 2);
  }
  size_t want = static_cast<size_t>(
      std::min<int64_t>(static_cast<int64_t>(buffer_.size() - end_), size_ - offset_));
  FLOE_RETURN_IF_ERROR(
      file_->ReadAt(offset_, std::as_writable_bytes(std::span(buffer_.data() + end_, want))));
  offset_ += static_cast<int64_t>(want);
  end_ += want;
  return true;
}

Result<bool> LineReader::Next(std::string_view& line) {
  while (true) {
    const char* start = buffer_.data() + begin_;
    const auto* newline = static_cast<const char*>(std::memchr(start, '\n', end_ - begin_));
    if (newline != nullptr) {
      line = std::string_view(start, static_cast<size_t>(newline - start));
      begin_ += line.size() + 1;
    } else {
      FLOE_ASSIGN_OR_RETURN(bool more, Refill());
      if (more) continue;
      if (begin_ == end_) return false;
      line = std::string_view(buffer_.data() + begin_, end_ - begin_);  // no final line break
      begin_ = end_;
    }
    ++line_number_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return true;
  }
}

}  // namespace floe::text
