#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>

#include "floe/catalog/catalog.h"
#include "floe/sql/statements/ddl_schema_internal.h"
#include "floe/sql/statements/table_statements.h"
#include "floe/sql/statements/write_statements_dynamic_internal.h"
#include "floe/stream/collection_source.h"
#include "floe/stream/iceberg/source_options.h"
#include "floe/stream/iceberg/write_rows/write_rows.h"
#include "floe/table/scan/batch_types.h"
#include "floe/util/strings.h"

namespace floe::sql {
namespace {

constexpr std::string_view kUseDynamicSink = "use-dynamic-sink";

// Options WriteRows takes itself; with the IcebergSink's write options below, they are neither
// catalog options nor properties of the tables created.
constexpr std::array<std::string_view, 17> kDynamicOptions = {"use-dynamic-sink",
                                                              "table",
                                                              "triggering-frequency",
                                                              "direct-write-byte-limit",
                                                              "distribution-mode",
                                                              "autosharding",
                                                              "partition-fields",
                                                              "sort-fields",
                                                              "keep",
                                                              "drop",
                                                              "only",
                                                              "metadata-refresh-interval",
                                                              "drop-unused-columns",
                                                              "upsert-enabled",
                                                              "branch",
                                                              "write-parallelism",
                                                              "sink-id"};
// The IcebergSink's options passed on to every table's writer (sink_options.h).
constexpr std::array<std::string_view, 6> kWriteOptions = {
    "write-format",      "target-file-size-bytes", "compression-codec",
    "compression-level", "max-open-files",         "max-continuous-empty-commits"};

template <size_t N>
bool OneOf(const std::array<std::string_view, N>& keys, std::string_view key) {
  return std::ranges::find(keys, key) != keys.end();
}

// "a, bucket(id, 16), c": split at commas outside parentheses, trimmed, empty parts dropped.
std::vector<std::string> SplitList(std::string_view text) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string part;
  auto flush = [&] {
    std::string_view trimmed = TrimWhitespace(part);
    if (!trimmed.empty()) parts.emplace_back(trimmed);
    part.clear();
  };
  for (char c : text) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      flush();
    } else {
      part += c;
    }
  }
  flush();
  return parts;
}

struct DynamicSinkOptions {
  std::string catalog_name;
  StringMap catalog_properties;
  std::string table;                           // template or identifier, with its database
  std::map<std::string, std::string> options;  // the dynamic and write options set
  std::map<std::string, std::string> table_properties;
};

Result<bool> ParseBool(std::string_view name, std::string_view key, const std::string& value) {
  if (EqualsIgnoreCase(value, "true")) return true;
  if (EqualsIgnoreCase(value, "false")) return false;
  return InvalidArgument("dynamic sink table '{}': option '{}': expected true or false, got '{}'",
                         name, key, value);
}

Result<int64_t> ParseCount(std::string_view name, std::string_view key, const std::string& value) {
  int64_t number = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (ec != std::errc() || end != value.data() + value.size() || number < 0) {
    return InvalidArgument(
        "dynamic sink table '{}': option '{}': expected a non-negative integer, got '{}'", name,
        key, value);
  }
  return number;
}

Result<std::chrono::milliseconds> ParseDuration(std::string_view name, std::string_view key,
                                                const std::string& value) {
  auto ms = stream::ParseDurationMs(value);
  if (!ms.has_value()) {
    return InvalidArgument("dynamic sink table '{}': option '{}': {}", name, key,
                           ms.error().message());
  }
  return std::chrono::milliseconds(*ms);
}

// True when the template has a '.' outside its {fields}: it names its database.
bool NamesDatabase(std::string_view pattern) {
  int depth = 0;
  for (char c : pattern) {
    if (c == '{') ++depth;
    if (c == '}') --depth;
    if (c == '.' && depth == 0) return true;
  }
  return false;
}

Result<DynamicSinkOptions> ParseOptions(std::string_view name, const ConnectorTable& table,
                                        const std::map<std::string, std::string>& hints) {
  FLOE_ASSIGN_OR_RETURN(StringMap all, ToStringMap(table.options, "connector table"));
  for (const auto& [key, value] : hints) all[key] = value;
  auto is_dynamic = [](std::string_view key) {
    return OneOf(kDynamicOptions, key) || OneOf(kWriteOptions, key);
  };
  FLOE_ASSIGN_OR_RETURN(
      ConnectorCatalog where,
      ParseConnectorCatalog(fmt::format("dynamic sink table '{}'", name), all, is_dynamic));
  DynamicSinkOptions out;
  out.catalog_name = std::move(where.name);
  out.catalog_properties = std::move(where.properties);
  auto pattern = all.find("table");
  if (pattern == all.end() || pattern->second.empty()) {
    return InvalidArgument(
        "dynamic sink table '{}': needs 'table', the destination table or a template such as "
        "'db.events_{{kind}}'",
        name);
  }
  out.table = pattern->second;
  if (!NamesDatabase(out.table)) out.table = where.database + "." + out.table;
  for (const auto& [key, value] : all) {
    const bool dynamic = is_dynamic(key);
    if (dynamic) out.options[key] = value;
    if (!dynamic && !IsIcebergCatalogOption(key) && key != "location") {
      out.table_properties[key] = value;
    }
  }
  return out;
}

Result<stream::WriteRows> Configure(std::string_view name, const ConnectorTable& table,
                                    const DynamicSinkOptions& parsed,
                                    const stream::DataStream& rows) {
  stream::WriteRows write = stream::WriteRows::Of(rows);
  write.Catalog(parsed.catalog_name, parsed.catalog_properties);
  if (parsed.table.find('{') != std::string::npos) {
    write.To(parsed.table);
  } else {
    FLOE_ASSIGN_OR_RETURN(catalog::TableIdentifier ident,
                          catalog::TableIdentifier::Parse(parsed.table));
    write.To(std::move(ident));
  }
  if (!parsed.table_properties.empty()) write.TableProperties(parsed.table_properties);
  const auto& options = parsed.options;
  for (const auto& [key, value] : options) {
    if (OneOf(kWriteOptions, key)) {
      write.Set(key, value);
    } else if (key == "triggering-frequency") {
      // As a SQL table serves bounded and unbounded INSERTs alike, the frequency applies to the
      // unbounded ones (WriteRows refuses it for bounded input, as Beam does).
      FLOE_ASSIGN_OR_RETURN(auto frequency, ParseDuration(name, key, value));
      if (!write.InputBounded()) write.WithTriggeringFrequency(frequency);
    } else if (key == "direct-write-byte-limit") {
      FLOE_ASSIGN_OR_RETURN(int64_t bytes, ParseCount(name, key, value));
      write.WithDirectWriteByteLimit(bytes);
    } else if (key == "distribution-mode") {
      FLOE_ASSIGN_OR_RETURN(stream::DistributionMode mode, stream::ParseDistributionMode(value));
      write.WithDistributionMode(mode);
    } else if (key == "autosharding") {
      FLOE_ASSIGN_OR_RETURN(bool on, ParseBool(name, key, value));
      if (on) write.WithAutosharding();
    } else if (key == "partition-fields") {
      write.PartitionFields(SplitList(value));
    } else if (key == "sort-fields") {
      write.SortFields(SplitList(value));
    } else if (key == "keep") {
      write.Keep(SplitList(value));
    } else if (key == "drop") {
      write.Drop(SplitList(value));
    } else if (key == "only") {
      write.Only(value);
    } else if (key == "metadata-refresh-interval") {
      FLOE_ASSIGN_OR_RETURN(auto interval, ParseDuration(name, key, value));
      write.MetadataRefreshInterval(interval);
    } else if (key == "drop-unused-columns") {
      FLOE_ASSIGN_OR_RETURN(bool on, ParseBool(name, key, value));
      write.DropUnusedColumns(on);
    } else if (key == "upsert-enabled") {
      FLOE_ASSIGN_OR_RETURN(bool on, ParseBool(name, key, value));
      if (on && table.primary_key.empty()) {
        return InvalidArgument(
            "dynamic sink table '{}': 'upsert-enabled' needs a PRIMARY KEY on the table", name);
      }
      if (on) write.Upsert(table.primary_key);
    } else if (key == "branch") {
      write.ToBranch(value);
    } else if (key == "write-parallelism") {
      FLOE_ASSIGN_OR_RETURN(int64_t parallelism, ParseCount(name, key, value));
      write.WriteParallelism(static_cast<int>(parallelism));
    } else if (key == "sink-id") {
      write.SinkId(value);
    }
  }
  // Without a frequency, an unbounded INSERT commits at every checkpoint, as the IcebergSink.
  if (!write.InputBounded() && !options.contains("triggering-frequency")) {
    write.WithTriggeringFrequency(std::chrono::milliseconds(1));
  }
  return write;
}

}  // namespace

bool IsDynamicSinkTable(const ConnectorTable& table) {
  bool iceberg = false, dynamic = false;
  for (const auto& [key, value] : table.options) {
    if (key == "connector") iceberg = value == "iceberg";
    if (key == kUseDynamicSink) dynamic = EqualsIgnoreCase(value, "true");
  }
  return iceberg && dynamic;
}

Result<BatchSchemaPtr> DynamicSinkColumns(const ConnectorTable& table) {
  FLOE_ASSIGN_OR_RETURN(SchemaPtr schema, ToIcebergSchema(table.columns, table.primary_key));
  FLOE_ASSIGN_OR_RETURN(std::vector<Field> fields, table::ToBatchFields(*schema));
  return std::make_shared<const BatchSchema>(std::move(fields));
}

Status CheckDynamicSinkTable(std::string_view name, const ConnectorTable& table) {
  FLOE_ASSIGN_OR_RETURN(DynamicSinkOptions parsed, ParseOptions(name, table, {}));
  // The builder's checks, on a throwaway bounded graph of the table's columns.
  FLOE_ASSIGN_OR_RETURN(BatchSchemaPtr columns, DynamicSinkColumns(table));
  stream::StreamEnvironment env({.mode = stream::RuntimeMode::kBatch});
  stream::DataStream rows = env.FromSource(
      std::make_shared<stream::CollectionSource>(columns, std::vector<RecordBatch>{}), "check");
  FLOE_ASSIGN_OR_RETURN(stream::WriteRows write, Configure(name, table, parsed, rows));
  auto applied = write.Apply();
  if (!applied) {
    return std::unexpected(
        std::move(applied.error()).AddContext(fmt::format("dynamic sink table '{}'", name)));
  }
  auto catalog = catalog::CreateCatalog(parsed.catalog_name, parsed.catalog_properties);
  if (!catalog) {
    return std::unexpected(
        std::move(catalog.error()).AddContext(fmt::format("dynamic sink table '{}'", name)));
  }
  return Ok();
}

Result<stream::DataStream> AddDynamicSink(std::string_view name, const ConnectorTable& table,
                                          const std::map<std::string, std::string>& hints,
                                          const stream::DataStream& rows) {
  FLOE_ASSIGN_OR_RETURN(DynamicSinkOptions parsed, ParseOptions(name, table, hints));
  FLOE_ASSIGN_OR_RETURN(stream::WriteRows write, Configure(name, table, parsed, rows));
  auto applied = write.Apply();
  if (!applied) {
    return std::unexpected(
        std::move(applied.error()).AddContext(fmt::format("dynamic sink table '{}'", name)));
  }
  return applied;
}

}  // namespace floe::sql
