#pragma once

// Reads CSV records (RFC 4180: comma-separated, double-quoted fields with "" for a quote, LF or
// CRLF line ends) from a file in large blocks, handing out fields as views into its buffer, so that
// converting a file does not allocate per field. Quoted fields may not span lines; empty lines are
// skipped. A record longer than LineReader::kMaxLineBytes, an unterminated quote, or a read error
// fails with a message naming the file and line.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/format/text/line_reader.h"
#include "floe/util/error.h"

namespace floe::text {

// Splits one CSV record (no line end) at `delimiter` into fields, views into the record or, for
// records with quotes, into `unquoted` (which the fields then borrow). kInvalidArgument for an
// unterminated quote.
Status SplitCsvRecord(std::string_view record, char delimiter, std::vector<std::string_view>& fields,
                      std::string& unquoted);

class CsvReader {
 public:
  explicit CsvReader(std::unique_ptr<io::InputFile> file) : lines_(std::move(file)) {}
  // Opens a local file (plain path or file: URI).
  static Result<std::unique_ptr<CsvReader>> OpenPath(const std::string& path);

  // The next non-empty record's fields, valid until the next call; false at the end of the file.
  Result<bool> Next(std::vector<std::string_view>& fields);
  // The line of the record Next returned last (1-based).
  int64_t line_number() const { return lines_.line_number(); }
  const std::string& location() const { return lines_.location(); }

 private:
  LineReader lines_;
  std::string unquoted_;  // the current record's quoted fields, unescaped
};

}  // namespace floe::text
