#include "floe/stream/iceberg/sink_options.h"

#include <algorithm>
#include <charconv>

#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/util/strings.h"

namespace floe::stream {
namespace {

constexpr std::string_view kKnownOptions[] = {
    "write-format",   "target-file-size-bytes", "compression-codec", "compression-level",
    "upsert-enabled", "overwrite-enabled",      "distribution-mode", "write-parallelism",
    "branch",         "equality-field-columns", "max-open-files",    "max-continuous-empty-commits",
};

Result<int64_t> ParsePositive(std::string_view key, const std::string& text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value <= 0) {
    return InvalidArgument("iceberg sink option {}: '{}' is not a positive integer", key, text);
  }
  return value;
}

Result<bool> ParseBool(std::string_view key, const std::string& text) {
  const std::string lower = AsciiLower(text);
  if (lower == "true") return true;
  if (lower == "false") return false;
  return InvalidArgument("iceberg sink option {}: '{}' is neither true nor false", key, text);
}

std::vector<std::string> SplitColumns(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    std::string column(TrimWhitespace(text.substr(start, end - start)));
    if (!column.empty()) out.push_back(std::move(column));
    start = end + 1;
  }
  return out;
}

// The option, else the first of the table properties that is set.
const std::string* Lookup(const std::map<std::string, std::string>& options, const StringMap& props,
                          std::string_view option, std::initializer_list<std::string_view> keys) {
  if (auto it = options.find(std::string(option)); it != options.end()) return &it->second;
  for (std::string_view key : keys) {
    if (auto it = props.find(key); it != props.end()) return &it->second;
  }
  return nullptr;
}

}  // namespace

Result<DistributionMode> ParseDistributionMode(std::string_view text) {
  const std::string lower = AsciiLower(text);
  if (lower == "none") return DistributionMode::kNone;
  if (lower == "hash") return DistributionMode::kHash;
  if (lower == "range") return DistributionMode::kRange;
  return InvalidArgument("distribution mode '{}' is not none, hash or range", text);
}

Result<SinkOptions> SinkOptions::Resolve(const TableMetadata& metadata,
                                         const std::map<std::string, std::string>& options,
                                         const std::vector<std::string>& equality_columns) {
  for (const auto& [key, value] : options) {
    if (std::find(std::begin(kKnownOptions), std::end(kKnownOptions), key) ==
        std::end(kKnownOptions)) {
      return InvalidArgument("iceberg sink: unknown write option '{}' (value '{}')", key, value);
    }
  }
  SinkOptions out;
  const StringMap& props = metadata.properties();
  const std::map<std::string, std::string> table_properties(props.begin(), props.end());
  FLOE_ASSIGN_OR_RETURN(out.write, table::WriteProperties::Parse(table_properties, options));
  if (out.write.format == table::FileFormat::kOrc ||
      out.write.delete_format == table::FileFormat::kOrc) {
    return Unsupported("iceberg sink: floe writes no ORC files (write-format parquet or avro)");
  }
  out.upsert = out.write.upsert;
  if (const std::string* v = Lookup(options, props, "overwrite-enabled", {})) {
    FLOE_ASSIGN_OR_RETURN(out.overwrite, ParseBool("overwrite-enabled", *v));
  }
  if (const std::string* v =
          Lookup(options, props, "distribution-mode", {"write.distribution-mode"})) {
    auto mode = ParseDistributionMode(*v);
    if (!mode)
      return InvalidArgument("iceberg sink option distribution-mode: {}", mode.error().message());
    out.distribution = *mode;
  }
  if (const std::string* v = Lookup(options, props, "write-parallelism", {})) {
    FLOE_ASSIGN_OR_RETURN(int64_t n, ParsePositive("write-parallelism", *v));
    out.write_parallelism = static_cast<int>(std::min<int64_t>(n, 1 << 16));
  }
  if (const std::string* v = Lookup(options, props, "branch", {})) {
    if (v->empty()) return InvalidArgument("iceberg sink option branch: empty name");
    out.branch = *v;
  }
  if (const std::string* v =
          Lookup(options, props, "max-open-files", {"floe.sink.max-open-files"})) {
    FLOE_ASSIGN_OR_RETURN(int64_t n, ParsePositive("max-open-files", *v));
    out.max_open_files = static_cast<size_t>(n);
  }
  if (const std::string* v =
          Lookup(options, props, "max-continuous-empty-commits",
                 {"floe.max-continuous-empty-commits", "flink.max-continuous-empty-commits"})) {
    FLOE_ASSIGN_OR_RETURN(int64_t n, ParsePositive("max-continuous-empty-commits", *v));
    out.max_continuous_empty_commits = static_cast<int>(std::min<int64_t>(n, 1 << 30));
  }
  if (out.overwrite && out.upsert) {
    return InvalidArgument(
        "iceberg sink: overwrite-enabled and upsert-enabled cannot be set together");
  }

  // Equality fields: the builder's columns, else the option, else the identifier fields.
  const Schema& schema = *metadata.current_schema();
  std::vector<std::string> columns = equality_columns;
  if (columns.empty()) {
    if (auto it = options.find("equality-field-columns"); it != options.end()) {
      columns = SplitColumns(it->second);
    }
  }
  if (!columns.empty()) {
    for (const std::string& name : columns) {
      const NestedField* field = schema.FindField(name);
      if (field == nullptr) {
        return InvalidArgument("iceberg sink: equality field column '{}' is not a column of {}",
                               name, schema.ToString());
      }
      if (schema.FindParentId(field->id).has_value() || !field->type->is_primitive()) {
        return InvalidArgument(
            "iceberg sink: equality field column '{}' must be a top-level primitive column", name);
      }
      if (std::find(out.equality_field_ids.begin(), out.equality_field_ids.end(), field->id) ==
          out.equality_field_ids.end()) {
        out.equality_field_ids.push_back(field->id);
      }
    }
  } else {
    out.equality_field_ids = schema.identifier_field_ids();
  }
  if (out.upsert) {
    if (metadata.format_version() < 2) {
      return InvalidArgument(
          "iceberg sink: upsert needs a table of format version 2 or later (this one is v{})",
          metadata.format_version());
    }
    if (out.equality_field_ids.empty()) {
      return InvalidArgument(
          "iceberg sink: upsert needs equality fields: identifier fields in the table's schema or "
          "equality-field-columns");
    }
    for (const PartitionField& field : metadata.default_spec()->fields()) {
      if (std::find(out.equality_field_ids.begin(), out.equality_field_ids.end(),
                    field.source_id()) == out.equality_field_ids.end()) {
        return InvalidArgument(
            "iceberg sink: in upsert mode the source column of partition field '{}' must be an "
            "equality field",
            field.name);
      }
    }
  }
  // Deletes need v2; an overwrite replaces partitions with inserted rows only.
  if (metadata.format_version() < 2 || out.overwrite) out.equality_field_ids.clear();
  return out;
}

}  // namespace floe::stream
