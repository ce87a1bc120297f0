#include "floe/format/text/csv_reader.h"

#include "floe/io/local_file_io.h"

namespace floe::text {

Result<std::unique_ptr<CsvReader>> CsvReader::OpenPath(const std::string& path) {
  io::LocalFileIO io;
  FLOE_ASSIGN_OR_RETURN(auto file, io.NewInputFile(path));
  return std::make_unique<CsvReader>(std::move(file));
}

Status SplitCsvRecord(std::string_view record, char delimiter, std::vector<std::string_view>& fields,
                      std::string& unquoted) {
  fields.clear();
  if (record.find('"') == std::string_view::npos) {
    while (true) {
      size_t end = record.find(delimiter);
      if (end == std::string_view::npos) break;
      fields.push_back(record.substr(0, end));
      record.remove_prefix(end + 1);
    }
    fields.push_back(record);
    return {};
  }
  // Unescaped text never outgrows the record, so views into `unquoted` stay valid while it fills.
  unquoted.clear();
  unquoted.reserve(record.size());
  size_t field_start = 0;
  bool quoted = false;
  for (size_t i = 0; i < record.size(); ++i) {
    char c = record[i];
    if (quoted) {
      if (c == '"' && i + 1 < record.size() && record[i + 1] == '"') {
        unquoted.push_back('"');
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        unquoted.push_back(c);
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == delimiter) {
      fields.emplace_back(unquoted.data() + field_start, unquoted.size() - field_start);
      field_start = unquoted.size();
    } else {
      unquoted.push_back(c);
    }
  }
  if (quoted) return InvalidArgument("unterminated quote");
  fields.emplace_back(unquoted.data() + field_start, unquoted.size() - field_start);
  return {};
}

Result<bool> CsvReader::Next(std::vector<std::string_view>& fields) {
  std::string_view line;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool any, lines_.Next(line));
    if (!any) return false;
    if (!line.empty()) break;
  }
  Status split = SplitCsvRecord(line, ',', fields, unquoted_);
  if (!split) {
    return InvalidArgument("{}: line {}: {}", location(), line_number(), split.error().message());
  }
  return true;
}

}  // namespace floe::text
