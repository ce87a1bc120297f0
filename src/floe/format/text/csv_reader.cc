#include "floe/format/text/csv_reader.h"

#include "floe/io/local_file_io.h"

namespace floe::text {

Result<std::unique_ptr<CsvReader>> CsvReader::OpenPath(const std::string& path) {
  io::LocalFileIO io;
  FLOE_ASSIGN_OR_RETURN(auto file, io.NewInputFile(path));
  return std::make_unique<CsvReader>(std::move(file));
}

Result<bool> CsvReader::Next(std::vector<std::string_view>& fields) {
  std::string_view line;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool any, lines_.Next(line));
    if (!any) return false;
    if (!line.empty()) break;
  }
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
  if (quoted) {
    return InvalidArgument("{}: line {}: unterminated quote", location(), line_number());
  }
  fields.emplace_back(unquoted_.data() + field_start, unquoted_.size() - field_start);
  return {};
}

}  // namespace floe::text
