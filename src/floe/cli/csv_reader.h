#pragma once

// Reads CSV records (RFC 4180: comma-separated, double-quoted fields with "" for a quote, LF or
// CRLF line ends) from a file in large blocks, handing out fields as views into its buffer, so that
// converting a file does not allocate per field. Quoted fields may not span lines. A record longer
// than kMaxRecordBytes, an unterminated quote, or a read error fails with a message naming the file
// and line.

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/util/error.h"

namespace floe::cli {

class CsvReader {
 public:
  static constexpr size_t kMaxRecordBytes = 64 << 20;

  static Result<std::unique_ptr<CsvReader>> Open(const std::string& path);
  ~CsvReader();

  // The next non-empty record's fields, valid until the next call; false at the end of the file.
  Result<bool> Next(std::vector<std::string_view>& fields);
  // The line of the record Next returned last (1-based).
  int64_t line_number() const { return line_number_; }

 private:
  CsvReader(std::string path, std::FILE* file) : path_(std::move(path)), file_(file) {}
  // Moves the unread bytes to the front and reads more; false when nothing was added.
  Result<bool> Refill();
  Status SplitQuoted(std::string_view line, std::vector<std::string_view>& fields);

  std::string path_;
  std::FILE* file_;
  std::vector<char> buffer_;
  size_t begin_ = 0, end_ = 0;  // unread bytes
  bool eof_ = false;
  int64_t line_number_ = 0;
  std::string unquoted_;  // the current record's quoted fields, unescaped
};

}  // namespace floe::cli
