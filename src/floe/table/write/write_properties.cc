#include "floe/table/write/write_properties.h"

#include <cctype>
#include <charconv>

#include "floe/util/strings.h"

namespace floe::table {
namespace {

Result<int64_t> ParseSize(std::string_view key, const std::string& text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value <= 0) {
    return InvalidArgument("property {}: '{}' is not a positive integer", key, text);
  }
  return value;
}

Result<bool> ParseBool(std::string_view key, const std::string& text) {
  const std::string lower = AsciiLower(text);
  if (lower == "true") return true;
  if (lower == "false") return false;
  return InvalidArgument("property {}: '{}' is neither true nor false", key, text);
}

}  // namespace

std::string_view FileFormatName(FileFormat format) {
  switch (format) {
    case FileFormat::kParquet:
      return "parquet";
    case FileFormat::kAvro:
      return "avro";
    case FileFormat::kOrc:
      return "orc";
  }
  return "parquet";
}

Result<FileFormat> ParseFileFormat(std::string_view text) {
  const std::string lower = AsciiLower(text);
  if (lower == "parquet") return FileFormat::kParquet;
  if (lower == "avro") return FileFormat::kAvro;
  if (lower == "orc") return FileFormat::kOrc;
  return InvalidArgument("file format '{}' is not parquet, avro or orc", text);
}

Result<WriteProperties> WriteProperties::Parse(
    const std::map<std::string, std::string>& table_properties,
    const std::map<std::string, std::string>& write_options) {
  WriteProperties out;
  out.properties = table_properties;
  auto& props = out.properties;
  // The job's options win over the table's properties.
  static constexpr std::pair<std::string_view, std::string_view> kOptionKeys[] = {
      {"write-format", "write.format.default"},
      {"target-file-size-bytes", "write.target-file-size-bytes"},
      {"upsert-enabled", "write.upsert.enabled"},
  };
  for (const auto& [option, value] : write_options) {
    for (const auto& [name, key] : kOptionKeys) {
      if (option == name) props[std::string(key)] = value;
    }
    if (option == "compression-codec" || option == "compression-level") {
      const std::string suffix = option;
      props["write.parquet." + suffix] = value;
      props["write.avro." + suffix] = value;
    }
  }
  auto get = [&](std::string_view key) -> const std::string* {
    auto it = props.find(std::string(key));
    return it == props.end() ? nullptr : &it->second;
  };
  if (const std::string* v = get("write.format.default")) {
    auto format = ParseFileFormat(*v);
    if (!format)
      return InvalidArgument("property write.format.default: {}", format.error().message());
    out.format = *format;
  }
  out.delete_format = out.format;
  if (const std::string* v = get("write.delete.format.default")) {
    auto format = ParseFileFormat(*v);
    if (!format) {
      return InvalidArgument("property write.delete.format.default: {}", format.error().message());
    }
    out.delete_format = *format;
  }
  if (const std::string* v = get("write.target-file-size-bytes")) {
    FLOE_ASSIGN_OR_RETURN(out.target_file_size, ParseSize("write.target-file-size-bytes", *v));
  }
  if (const std::string* v = get("write.delete.target-file-size-bytes")) {
    FLOE_ASSIGN_OR_RETURN(out.delete_target_file_size,
                          ParseSize("write.delete.target-file-size-bytes", *v));
  }
  if (const std::string* v = get("write.upsert.enabled")) {
    FLOE_ASSIGN_OR_RETURN(out.upsert, ParseBool("write.upsert.enabled", *v));
  }
  FLOE_ASSIGN_OR_RETURN(out.parquet, parquet::ParseWriterOptions(props));
  return out;
}

}  // namespace floe::table
