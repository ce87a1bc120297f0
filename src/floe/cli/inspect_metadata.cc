// `floe inspect metadata PATH [--json]`: shows an Iceberg table's metadata file, given the file or
// the table folder (whose current metadata file is found as file-system tables name them).

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "floe/cli/command_line_io.h"
#include "floe/cli/commands.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/sort_order.h"
#include "floe/spec/table_metadata.h"
#include "floe/spec/table_metadata_io.h"
#include "floe/spec/table_metadata_json.h"

namespace floe::cli {
namespace {

// Milliseconds since the epoch as "2026-01-31T12:00:00.000Z" (civil-from-days, proleptic
// Gregorian).
std::string FormatTimestampMs(int64_t ms) {
  int64_t days = ms / 86400000;
  int64_t rem = ms % 86400000;
  if (rem < 0) {
    rem += 86400000;
    --days;
  }
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t day = doy - (153 * mp + 2) / 5 + 1;
  const int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", year, month, day, rem / 3600000,
                     rem / 60000 % 60, rem / 1000 % 60, rem % 1000);
}

std::string OneLine(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

void PrintSummary(const std::string& file, const TableMetadata& m) {
  std::string out;
  auto line = [&out](std::string_view label, std::string_view value) {
    out += fmt::format("{:<22}{}\n", label, value);
  };
  line("metadata file", file);
  line("format version", std::to_string(m.format_version()));
  line("table uuid", m.table_uuid().empty() ? "(none)" : m.table_uuid());
  line("location", m.location());
  line("last updated",
       fmt::format("{} ({})", FormatTimestampMs(m.last_updated_ms()), m.last_updated_ms()));
  if (m.format_version() >= 2)
    line("last sequence number", std::to_string(m.last_sequence_number()));
  line("last column id", std::to_string(m.last_column_id()));
  line("last partition id", std::to_string(m.last_partition_id()));
  if (m.format_version() >= 3) line("next row id", std::to_string(m.next_row_id()));

  const Schema& schema = *m.current_schema();
  out += fmt::format("\ncurrent schema (id {} of {}):\n", schema.schema_id(), m.schemas().size());
  for (const auto& field : schema.fields()) out += fmt::format("  {}\n", field.ToString());
  if (!schema.identifier_field_ids().empty()) {
    out += fmt::format("  identifier fields: {}\n", fmt::join(schema.identifier_field_ids(), ", "));
  }

  out += fmt::format("\npartition spec (id {} of {}): {}\n", m.default_spec_id(),
                     m.partition_specs().size(), m.default_spec()->ToString());
  out += fmt::format("sort order (id {} of {}): {}\n", m.default_sort_order_id(),
                     m.sort_orders().size(), m.default_sort_order()->ToString());

  auto current = m.current_snapshot_id();
  out += fmt::format("\nsnapshots ({}), current: {}\n", m.snapshots().size(),
                     current ? std::to_string(*current) : "none");
  for (const auto& s : m.snapshots()) {
    out += fmt::format("  {}{} {}", s->snapshot_id, current == s->snapshot_id ? " *" : "",
                       FormatTimestampMs(s->timestamp_ms));
    if (m.format_version() >= 2) out += fmt::format(" seq {}", s->sequence_number);
    out += fmt::format(" {}", s->operation().empty() ? "(no operation)" : s->operation());
    if (s->parent_snapshot_id) out += fmt::format(" parent {}", *s->parent_snapshot_id);
    if (s->schema_id) out += fmt::format(" schema {}", *s->schema_id);
    if (s->first_row_id) out += fmt::format(" first-row-id {}", *s->first_row_id);
    if (s->added_rows) out += fmt::format(" added-rows {}", *s->added_rows);
    out += "\n";
    if (!s->manifest_list.empty())
      out += fmt::format("      manifest list: {}\n", s->manifest_list);
    for (const auto& manifest : s->manifests) out += fmt::format("      manifest: {}\n", manifest);
    std::string summary;
    for (const auto& [key, value] : s->summary) {
      if (key == "operation") continue;
      summary += fmt::format("{}{}={}", summary.empty() ? "" : ", ", key, value);
    }
    if (!summary.empty()) out += fmt::format("      summary: {}\n", summary);
  }

  out += fmt::format("\nrefs ({}):\n", m.refs().size());
  for (const auto& [name, ref] : m.refs()) {
    out += fmt::format("  {} {} -> {}", name, SnapshotRefTypeName(ref.type), ref.snapshot_id);
    if (ref.min_snapshots_to_keep)
      out += fmt::format(" min-snapshots-to-keep {}", *ref.min_snapshots_to_keep);
    if (ref.max_snapshot_age_ms)
      out += fmt::format(" max-snapshot-age-ms {}", *ref.max_snapshot_age_ms);
    if (ref.max_ref_age_ms) out += fmt::format(" max-ref-age-ms {}", *ref.max_ref_age_ms);
    out += "\n";
  }
  if (!m.statistics().empty() || !m.partition_statistics().empty()) {
    out += fmt::format("\nstatistics files: {}, partition statistics files: {}\n",
                       m.statistics().size(), m.partition_statistics().size());
  }
  if (!m.encryption_keys().empty()) {
    out += fmt::format("encryption keys: {}\n", m.encryption_keys().size());
  }
  out += fmt::format("\nproperties ({}):\n", m.properties().size());
  for (const auto& [key, value] : m.properties()) out += fmt::format("  {} = {}\n", key, value);
  std::fputs(out.c_str(), stdout);
}

int RunInspectMetadata(const std::string& path, bool json) {
  io::FileIO& io = *CommandLineFileIO();
  auto fail = [&](const Error& error) {
    std::string message = error.message();
    // Errors from reading a file already start with its location.
    if (!message.starts_with(path)) message = fmt::format("{}: {}", path, message);
    std::fprintf(stderr, "floe: %s\n", OneLine(message).c_str());
    return kExitBadInput;
  };
  auto info = io.GetInfo(path);
  if (!info) return fail(info.error());
  std::string file = path;
  if (info->is_dir) {
    auto found = FindCurrentMetadataLocation(io, path);
    if (!found) return fail(found.error());
    file = *found;
  }
  auto metadata = ReadTableMetadata(io, file);
  if (!metadata) return fail(metadata.error());
  if (json) {
    std::fputs((TableMetadataToJsonString(**metadata, /*pretty=*/true) + "\n").c_str(), stdout);
  } else {
    PrintSummary(file, **metadata);
  }
  return kExitOk;
}

}  // namespace

void AddInspectMetadata(CLI::App& inspect, int& exit_code) {
  CLI::App* cmd = inspect.add_subcommand(
      "metadata",
      "Show an Iceberg table's metadata: a metadata JSON file (.metadata.json, "
      ".metadata.json.gz) or a table folder, whose current metadata is found through "
      "metadata/version-hint.text or the highest version");
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  cmd->add_option("PATH", *path, "metadata file or table folder")->required();
  cmd->add_flag("--json", *json, "print the metadata re-serialized as JSON");
  cmd->callback([path, json, &exit_code] { exit_code = RunInspectMetadata(*path, *json); });
}

}  // namespace floe::cli
