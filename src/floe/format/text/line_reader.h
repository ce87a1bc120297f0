#pragma once

// Reads a text file line by line in large blocks through an io::InputFile, handing out lines as
// views into its buffer (no allocation per line). LF and CRLF line ends; a last line without a
// line end counts. A line longer than kMaxLineBytes or a read error fails with a message naming
// the file and line.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/io/file_io.h"
#include "floe/util/error.h"

namespace floe::text {

class LineReader {
 public:
  static constexpr size_t kMaxLineBytes = 64 << 20;

  explicit LineReader(std::unique_ptr<io::InputFile> file);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line without its line end, valid until the next call; false at the end of the file.
  Result<bool> Next(std::string_view& line);
  // The line Next returned last (1-based).
  int64_t line_number() const { return line_number_; }
  const std::string& location() const;

 private:
  // Moves the unread bytes to the front and reads more; false when nothing was added.
  Result<bool> Refill();

  std::unique_ptr<io::InputFile> file_;
  int64_t size_ = -1;  // asked for at the first read
  int64_t offset_ = 0;  // of the next byte to read from the file
  std::vector<char> buffer_;
  size_t begin_ = 0, end_ = 0;  // unread bytes
  int64_t line_number_ = 0;
};

}  // namespace floe::text
