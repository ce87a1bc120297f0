// `floe inspect orc FILE`: the tail of an ORC file (postscript, footer, stripe statistics) and
// each stripe's footer, in readable form.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <string>

#include "floe/cli/commands.h"
#include "floe/format/orc/file_reader.h"

namespace floe::cli {

namespace {

using namespace floe::orc;

std::string_view EncodingName(EncodingKind kind) {
  switch (kind) {
    case EncodingKind::kDirect:
      return "DIRECT";
    case EncodingKind::kDictionary:
      return "DICTIONARY";
    case EncodingKind::kDirectV2:
      return "DIRECT_V2";
    case EncodingKind::kDictionaryV2:
      return "DICTIONARY_V2";
  }
  return "?";
}

std::string_view StreamName(uint32_t kind) {
  static constexpr std::string_view kNames[] = {
      "PRESENT",       "DATA",      "LENGTH",       "DICTIONARY_DATA",   "DICTIONARY_COUNT",
      "SECONDARY",     "ROW_INDEX", "BLOOM_FILTER", "BLOOM_FILTER_UTF8", "ENCRYPTED_INDEX",
      "ENCRYPTED_DATA"};
  return kind < std::size(kNames) ? kNames[kind] : "UNKNOWN";
}

// Column id, name (path in the tree) and type of every node, indented by depth.
void PrintType(const std::vector<Type>& types, uint32_t column, const std::string& name,
               int depth) {
  const Type& type = types[column];
  std::string line(static_cast<size_t>(2 * depth + 2), ' ');
  line += fmt::format("{} {}: {}", column, name, TypeKindName(type.kind));
  if (type.kind == orc::TypeKind::kDecimal)
    line += fmt::format("({},{})", type.precision, type.scale);
  if (type.kind == orc::TypeKind::kVarchar || type.kind == orc::TypeKind::kChar) {
    line += fmt::format("({})", type.maximum_length);
  }
  for (const auto& [key, value] : type.attributes) line += fmt::format(" {}={}", key, value);
  std::puts(line.c_str());
  for (size_t i = 0; i < type.subtypes.size(); ++i) {
    std::string child = i < type.field_names.size()         ? type.field_names[i]
                        : type.kind == orc::TypeKind::kList ? "element"
                        : type.kind == orc::TypeKind::kMap  ? (i == 0 ? "key" : "value")
                                                            : fmt::format("{}", i);
    PrintType(types, type.subtypes[i], child, depth + 1);
  }
}

std::string StatisticsText(const ColumnStatistics& s) {
  std::string text = fmt::format("values={} has_null={}", s.number_of_values, s.has_null);
  if (s.int_range) text += fmt::format(" min={} max={}", s.int_range->first, s.int_range->second);
  if (s.double_range) {
    text += fmt::format(" min={} max={}", s.double_range->first, s.double_range->second);
  }
  if (s.string_range) {
    text += fmt::format(" min=\"{}\" max=\"{}\"", s.string_range->first, s.string_range->second);
  }
  if (s.timestamp_range) {
    text +=
        fmt::format(" min_ms={} max_ms={}", s.timestamp_range->first, s.timestamp_range->second);
  }
  if (s.true_count) text += fmt::format(" true_count={}", *s.true_count);
  return text;
}

Status Inspect(const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(auto file, OrcFileReader::OpenPath(path));
  const PostScript& ps = file->postscript();
  const Footer& footer = file->footer();
  const std::string version = fmt::format("{}", fmt::join(ps.version, "."));
  fmt::print("file: {} ({} bytes)\n", path, file->file_size());
  fmt::print("version: {}  writer version: {}  writer: {}  software: {}\n",
             version.empty() ? "(none)" : version, ps.writer_version,
             footer.writer ? std::to_string(*footer.writer) : "(none)",
             footer.software_version.empty() ? "(none)" : footer.software_version);
  fmt::print("compression: {}", CompressionKindName(ps.compression));
  if (ps.compression != CompressionKind::kNone)
    fmt::print(" block_size={}", ps.compression_block_size);
  fmt::print("\nrows: {}  stripes: {}  row index stride: {}\n", footer.number_of_rows,
             footer.stripes.size(), footer.row_index_stride);
  if (!footer.metadata.empty()) {
    std::puts("user metadata:");
    for (const auto& [key, value] : footer.metadata)
      fmt::print("  {} = {} bytes\n", key, value.size());
  }
  std::puts("types:");
  PrintType(footer.types, 0, "(root)", 0);
  std::puts("file statistics:");
  for (size_t c = 0; c < footer.statistics.size(); ++c) {
    fmt::print("  column {}: {}\n", c, StatisticsText(footer.statistics[c]));
  }
  FLOE_ASSIGN_OR_RETURN(StripeStatistics stripe_stats, file->ReadStripeStatistics());
  for (size_t i = 0; i < footer.stripes.size(); ++i) {
    const StripeInformation& s = footer.stripes[i];
    fmt::print("stripe {}: offset={} rows={} index={} data={} footer={}\n", i, s.offset,
               s.number_of_rows, s.index_length, s.data_length, s.footer_length);
    FLOE_ASSIGN_OR_RETURN(StripeFooter stripe, file->ReadStripeFooter(i));
    if (!stripe.writer_timezone.empty())
      fmt::print("  writer timezone: {}\n", stripe.writer_timezone);
    for (size_t c = 0; c < footer.types.size(); ++c) {
      const ColumnEncoding& e = stripe.columns[c];
      std::string line = fmt::format("  column {}: {}", c, EncodingName(e.kind));
      if (e.kind == EncodingKind::kDictionary || e.kind == EncodingKind::kDictionaryV2) {
        line += fmt::format(" dictionary_size={}", e.dictionary_size);
      }
      if (i < stripe_stats.size() && c < stripe_stats[i].size()) {
        line += fmt::format(" {}", StatisticsText(stripe_stats[i][c]));
      }
      std::puts(line.c_str());
    }
    uint64_t offset = s.offset;
    for (const Stream& stream : stripe.streams) {
      fmt::print("    stream {} column {} offset={} length={}\n", StreamName(stream.kind),
                 stream.column, offset, stream.length);
      offset += stream.length;
    }
  }
  return Ok();
}

}  // namespace

void AddInspectOrc(CLI::App& inspect, int& exit_code) {
  AddInspectFileCommand(inspect, "orc",
                        "Print an ORC file's types, statistics, stripes, encodings and streams",
                        "The ORC file", Inspect, exit_code);
}

}  // namespace floe::cli
