#include "floe/cli/inspect_manifest.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "floe/cli/command_line_io.h"
#include "floe/cli/commands.h"
#include "floe/format/avro/container.h"
#include "floe/format/avro/datum_json.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/spec/literal.h"
#include "floe/spec/schema.h"
#include "floe/spec/schema_json.h"
#include "floe/util/json.h"

namespace floe::cli {
namespace {

using manifest::BoundMap;
using manifest::CountMap;

void Print(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

std::string Optional(const std::optional<int64_t>& v) {
  return v ? std::to_string(*v) : std::string("null");
}

std::string Counts(const CountMap& map) {
  std::string out = "{";
  for (size_t i = 0; i < map.size(); ++i) {
    out += fmt::format("{}{}: {}", i ? ", " : "", map[i].first, map[i].second);
  }
  return out + "}";
}

// Bounds decoded with the column types of the table schema stored in the manifest; raw hex when
// the column is unknown or the bytes do not decode.
std::string Bounds(const BoundMap& map, const Schema* schema) {
  std::string out = "{";
  for (size_t i = 0; i < map.size(); ++i) {
    std::string text;
    const NestedField* field = schema ? schema->FindField(map[i].first) : nullptr;
    if (field != nullptr && field->type->is_primitive()) {
      if (auto v = Literal::FromBinary(field->type, map[i].second)) text = v->ToString();
    }
    if (text.empty()) text = "0x" + avro::FormatHex(map[i].second);
    out += fmt::format("{}{}: {}", i ? ", " : "", map[i].first, text);
  }
  return out + "}";
}

Status InspectManifest(const std::string& path, std::span<const std::byte> bytes) {
  FLOE_ASSIGN_OR_RETURN(auto reader, manifest::ManifestReader::Open(bytes, path));
  SchemaPtr schema;
  if (auto it = reader->metadata().find("schema"); it != reader->metadata().end()) {
    if (auto json = Json::Parse(it->second)) {
      if (auto s = SchemaFromJson(*json)) schema = *s;
    }
  }
  const auto& md = reader->metadata();
  auto meta = [&md](const char* key) {
    auto it = md.find(key);
    return it == md.end() ? std::string("-") : it->second;
  };
  Print(fmt::format("manifest {}\n", path));
  Print(fmt::format("  format-version: {}  content: {}  partition-spec-id: {}  schema-id: {}\n",
                    reader->format_version(), manifest::ManifestContentName(reader->content()),
                    reader->spec_id(), meta("schema-id")));
  Print(fmt::format("  partition-spec: {}\n", meta("partition-spec")));
  Print(fmt::format("  partition type: {}\n", reader->partition_type()->ToString()));
  manifest::ManifestEntry e;
  int64_t n = 0;
  auto fields = reader->partition_type()->fields();
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool more, reader->Next(e));
    if (!more) break;
    const manifest::DataFile& f = e.data_file;
    std::string partition;
    for (size_t i = 0; i < f.partition.size() && i < fields.size(); ++i) {
      partition += fmt::format("{}{}={}", i ? ", " : "", fields[i].name,
                               f.partition[i].is_null() ? "null" : f.partition[i].ToString());
    }
    Print(fmt::format("entry {}: {} snapshot={} sequence={} file-sequence={}\n", n++,
                      manifest::EntryStatusName(e.status), Optional(e.snapshot_id),
                      Optional(e.sequence_number), Optional(e.file_sequence_number)));
    Print(fmt::format("  {} {} {}\n", manifest::FileContentName(f.content), f.file_format,
                      f.file_path));
    Print(fmt::format("  partition: {{{}}}\n", partition));
    Print(fmt::format("  records: {}  bytes: {}\n", f.record_count, f.file_size_in_bytes));
    if (!f.column_sizes.empty()) Print("  column_sizes: " + Counts(f.column_sizes) + "\n");
    if (!f.value_counts.empty()) Print("  value_counts: " + Counts(f.value_counts) + "\n");
    if (!f.null_value_counts.empty()) {
      Print("  null_value_counts: " + Counts(f.null_value_counts) + "\n");
    }
    if (!f.nan_value_counts.empty()) {
      Print("  nan_value_counts: " + Counts(f.nan_value_counts) + "\n");
    }
    if (!f.lower_bounds.empty())
      Print("  lower_bounds: " + Bounds(f.lower_bounds, schema.get()) + "\n");
    if (!f.upper_bounds.empty())
      Print("  upper_bounds: " + Bounds(f.upper_bounds, schema.get()) + "\n");
    if (f.key_metadata) Print("  key_metadata: 0x" + avro::FormatHex(*f.key_metadata) + "\n");
    if (!f.split_offsets.empty()) {
      Print(fmt::format("  split_offsets: [{}]\n", fmt::join(f.split_offsets, ", ")));
    }
    if (!f.equality_ids.empty()) {
      Print(fmt::format("  equality_ids: [{}]\n", fmt::join(f.equality_ids, ", ")));
    }
    if (f.sort_order_id) Print(fmt::format("  sort_order_id: {}\n", *f.sort_order_id));
    if (f.first_row_id) Print(fmt::format("  first_row_id: {}\n", *f.first_row_id));
    if (f.referenced_data_file) {
      Print(fmt::format("  referenced_data_file: {}\n", *f.referenced_data_file));
    }
    if (f.content_offset || f.content_size_in_bytes) {
      Print(fmt::format("  content_offset: {}  content_size_in_bytes: {}\n",
                        Optional(f.content_offset), Optional(f.content_size_in_bytes)));
    }
  }
  Print(fmt::format("{} entries\n", n));
  return Ok();
}

std::string OptionalCount(const auto& v) { return v ? std::to_string(*v) : std::string("null"); }

Status InspectList(const std::string& path, std::span<const std::byte> bytes,
                   const avro::ContainerReader& header) {
  FLOE_ASSIGN_OR_RETURN(auto list, manifest::ReadManifestList(bytes, path));
  auto meta = [&header](const char* key) {
    auto v = header.Metadata(key);
    return v ? std::string(*v) : std::string("-");
  };
  Print(fmt::format("manifest list {}\n", path));
  Print(
      fmt::format("  format-version: {}  snapshot-id: {}  parent-snapshot-id: {}  "
                  "sequence-number: {}\n",
                  meta("format-version"), meta("snapshot-id"), meta("parent-snapshot-id"),
                  meta("sequence-number")));
  for (size_t i = 0; i < list.size(); ++i) {
    const manifest::ManifestFile& m = list[i];
    Print(fmt::format("manifest {}: {}\n", i, m.manifest_path));
    Print(fmt::format(
        "  length: {}  spec: {}  content: {}  sequence: {}  min-sequence: {}  "
        "added-snapshot: {}\n",
        m.manifest_length, m.partition_spec_id, manifest::ManifestContentName(m.content),
        m.sequence_number, m.min_sequence_number, m.added_snapshot_id));
    Print(fmt::format("  files added/existing/deleted: {}/{}/{}  rows: {}/{}/{}\n",
                      OptionalCount(m.added_files_count), OptionalCount(m.existing_files_count),
                      OptionalCount(m.deleted_files_count), OptionalCount(m.added_rows_count),
                      OptionalCount(m.existing_rows_count), OptionalCount(m.deleted_rows_count)));
    if (m.first_row_id) Print(fmt::format("  first_row_id: {}\n", *m.first_row_id));
    if (m.key_metadata) Print("  key_metadata: 0x" + avro::FormatHex(*m.key_metadata) + "\n");
    if (m.partitions) {
      for (size_t k = 0; k < m.partitions->size(); ++k) {
        const manifest::FieldSummary& s = (*m.partitions)[k];
        Print(fmt::format("  partition {}: contains_null={} contains_nan={} lower={} upper={}\n", k,
                          s.contains_null,
                          s.contains_nan ? (*s.contains_nan ? "true" : "false") : "null",
                          s.lower_bound ? "0x" + avro::FormatHex(*s.lower_bound) : "null",
                          s.upper_bound ? "0x" + avro::FormatHex(*s.upper_bound) : "null"));
      }
    }
  }
  Print(fmt::format("{} manifests\n", list.size()));
  return Ok();
}

Status Inspect(const std::string& path) {
  // Errors start with the file, as every message of this command does.
  Result<std::string> bytes = CommandLineFileIO()->ReadFile(path);
  if (!bytes) return std::unexpected(std::move(bytes.error().AddContext(path)));
  auto span = std::as_bytes(std::span(*bytes));
  FLOE_ASSIGN_OR_RETURN(auto header, avro::ContainerReader::Open(span, path));
  FLOE_ASSIGN_OR_RETURN(auto kind, manifest::DetectKind(*header));
  if (kind == manifest::ManifestKind::kManifestList) return InspectList(path, span, *header);
  return InspectManifest(path, span);
}

}  // namespace

void AddInspectManifest(CLI::App& inspect, int& exit_code) {
  CLI::App* cmd = inspect.add_subcommand("manifest", "Print an Iceberg manifest or manifest list");
  auto path = std::make_shared<std::string>();
  cmd->add_option("file", *path, "A manifest or manifest list (.avro)")->required();
  cmd->callback([path, &exit_code] {
    Status status = Inspect(*path);
    std::fflush(stdout);
    if (!status) {
      std::fprintf(stderr, "floe inspect manifest: %s\n", status.error().message().c_str());
      exit_code = kExitBadInput;
      return;
    }
    exit_code = kExitOk;
  });
}

}  // namespace floe::cli
