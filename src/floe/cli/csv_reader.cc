#include "floe/cli/csv_reader.h"

#include <cerrno>
#include <cstring>

namespace floe::cli {
namespace {

constexpr size_t kBlockBytes = 1 << 20;

}  // namespace

Result<std::unique_ptr<CsvReader>> CsvReader::Open(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return NotFound("{}: cannot open: {}", path, std::strerror(errno));
  auto reader = std::unique_ptr<CsvReader>(new CsvReader(path, file));
  reader->buffer_.resize(kBlockBytes);
  return reader;
}

CsvReader::~CsvReader() { std::fclose(file_); }

Result<bool> CsvReader::Refill() {
  if (eof_) return false;
  size_t unread = end_ - begin_;
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, unread);
    begin_ = 0;
    end_ = unread;
  }
  if (end_ == buffer_.size()) {
    if (buffer_.size() >= kMaxRecordBytes) {
      return InvalidArgument("{}: line {}: a record longer than {} bytes", path_, line_number_ + 1,
                             kMaxRecordBytes);
    }
    buffer_.resize(buffer_.size() * 2);
  }
  size_t got = std::fread(buffer_.data() + end_, 1, buffer_.size() - end_, file_);
  if (got == 0) {
    if (std::ferror(file_)) return IOError("{}: read failed", path_);
    eof_ = true;
    return false;
  }
  end_ += got;
  return true;
}

Result<bool> CsvReader::Next(std::vector<std::string_view>& fields) {
  while (true) {
    const char* start = buffer_.data() + begin_;
    const auto* newline = static_cast<const char*>(std::memchr(start, '\n', end_ - begin_));
    std::string_view line;
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
    if (line.empty()) continue;
    fields.clear();
    if (line.find('"') != std::string_view::npos) {
      FLOE_RETURN_IF_ERROR(SplitQuoted(line, fields));
      return true;
    }
    while (true) {
      size_t comma = line.find(',');
      if (comma == std::string_view::npos) break;
      fields.push_back(line.substr(0, comma));
      line.remove_prefix(comma + 1);
    }
    fields.push_back(line);
    return true;
  }
}

Status CsvReader::SplitQuoted(std::string_view line, std::vector<std::string_view>& fields) {
  // Unescaped text never outgrows the line, so views into unquoted_ stay valid while it fills.
  unquoted_.clear();
  unquoted_.reserve(line.size());
  size_t field_start = 0;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        unquoted_.push_back('"');
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        unquoted_.push_back(c);
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back(unquoted_.data() + field_start, unquoted_.size() - field_start);
      field_start = unquoted_.size();
    } else {
      unquoted_.push_back(c);
    }
  }
  if (quoted) return InvalidArgument("{}: line {}: unterminated quote", path_, line_number_);
  fields.emplace_back(unquoted_.data() + field_start, unquoted_.size() - field_start);
  return {};
}

}  // namespace floe::cli
