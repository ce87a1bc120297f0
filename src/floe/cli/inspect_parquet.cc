// `floe inspect parquet FILE`: the footer of a Parquet file in readable form.

#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "floe/cli/commands.h"
#include "floe/format/parquet/footer.h"
#include "floe/format/parquet/metadata.h"
#include "floe/format/parquet/schema.h"
#include "floe/format/parquet/source.h"
#include "floe/format/parquet/value_format.h"

namespace floe::cli {

namespace {

using namespace floe::parquet;

constexpr size_t kMaxShownValue = 200;

std::string Shorten(std::string s) {
  if (s.size() > kMaxShownValue) s = s.substr(0, kMaxShownValue) + "...";
  for (char& c : s) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return s;
}

void PrintNode(const SchemaTree& tree, int index, int depth) {
  const SchemaNode& n = tree.node(index);
  std::string line(static_cast<size_t>(2 * depth + 2), ' ');
  line += fmt::format("{}: ", n.name);
  if (n.parent >= 0) line += fmt::format("{} ", RepetitionName(n.repetition));
  if (n.physical_type) {
    line += PhysicalTypeName(*n.physical_type);
    if (*n.physical_type == PhysicalType::kFixedLenByteArray) {
      line += fmt::format("({})", n.type_length);
    }
  } else {
    line += "group";
  }
  if (n.logical_type) line += fmt::format(" logical={}", n.logical_type->ToString());
  if (n.converted_type) {
    line += fmt::format(" converted={}", ConvertedTypeName(*n.converted_type));
    if (*n.converted_type == ConvertedType::kDecimal) {
      line += fmt::format("({},{})", n.precision, n.scale);
    }
  }
  if (n.field_id) line += fmt::format(" field_id={}", *n.field_id);
  line += fmt::format(" R:{} D:{}", n.max_repetition_level, n.max_definition_level);
  if (n.column >= 0) line += fmt::format(" column={}", n.column);
  std::puts(line.c_str());
  for (int child : n.children) PrintNode(tree, child, depth + 1);
}

void PrintStatistics(const Statistics& s, const SchemaNode& leaf) {
  std::string line = "      statistics:";
  if (s.min_value) line += fmt::format(" min={}", Shorten(FormatPlainValue(leaf, *s.min_value)));
  if (s.max_value) line += fmt::format(" max={}", Shorten(FormatPlainValue(leaf, *s.max_value)));
  // The legacy fields are in signed byte order: shown only when the current ones are absent.
  if (!s.min_value && s.min)
    line += fmt::format(" min(legacy)={}", Shorten(FormatPlainValue(leaf, *s.min)));
  if (!s.max_value && s.max)
    line += fmt::format(" max(legacy)={}", Shorten(FormatPlainValue(leaf, *s.max)));
  if (s.null_count) line += fmt::format(" null_count={}", *s.null_count);
  if (s.nan_count) line += fmt::format(" nan_count={}", *s.nan_count);
  if (s.distinct_count) line += fmt::format(" distinct_count={}", *s.distinct_count);
  if (s.is_min_value_exact && !*s.is_min_value_exact) line += " min_inexact";
  if (s.is_max_value_exact && !*s.is_max_value_exact) line += " max_inexact";
  std::puts(line.c_str());
}

Status Inspect(const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(auto source, OpenLocalFile(path));
  FLOE_ASSIGN_OR_RETURN(FileMetaData m, ReadFooter(*source));
  auto tree_or = SchemaTree::Make(m.schema);
  if (!tree_or) return std::unexpected(std::move(tree_or.error().AddContext(path)));
  const SchemaTree& tree = *tree_or;
  FLOE_RETURN_IF_ERROR_CTX(CheckRowGroups(m, tree), path);

  fmt::print("file: {} ({} bytes)\n", path, source->size());
  fmt::print("created_by: {}\n", m.created_by.value_or("(none)"));
  fmt::print("version: {}  rows: {}  row groups: {}  columns: {}\n", m.version, m.num_rows,
             m.row_groups.size(), tree.columns().size());
  if (!m.key_value_metadata.empty()) {
    std::puts("key-value metadata:");
    for (const auto& kv : m.key_value_metadata) {
      fmt::print("  {} = {}\n", kv.key, kv.value ? Shorten(*kv.value) : "(null)");
    }
  }
  std::puts("schema:");
  PrintNode(tree, 0, 0);
  for (size_t g = 0; g < m.row_groups.size(); ++g) {
    const RowGroup& group = m.row_groups[g];
    fmt::print("row group {}: rows={} total_byte_size={}", g, group.num_rows,
               group.total_byte_size);
    if (group.total_compressed_size) fmt::print(" compressed={}", *group.total_compressed_size);
    if (group.file_offset) fmt::print(" offset={}", *group.file_offset);
    std::puts("");
    for (size_t c = 0; c < group.columns.size(); ++c) {
      const ColumnChunk& chunk = group.columns[c];
      const ColumnMetaData& cm = *chunk.meta_data;
      const ColumnDescriptor& column = tree.columns()[c];
      std::string encodings;
      for (Encoding e : cm.encodings) {
        if (!encodings.empty()) encodings += ',';
        encodings += EncodingName(e);
      }
      fmt::print("  column {} {}: {} codec={} encodings={} values={}\n", c, column.dotted_path(),
                 PhysicalTypeName(cm.type), CodecName(cm.codec), encodings, cm.num_values);
      std::string offsets =
          fmt::format("      sizes: compressed={} uncompressed={} data_page={}",
                      cm.total_compressed_size, cm.total_uncompressed_size, cm.data_page_offset);
      if (cm.dictionary_page_offset) {
        offsets += fmt::format(" dictionary_page={}", *cm.dictionary_page_offset);
      }
      if (chunk.column_index_offset) {
        offsets += fmt::format(" column_index={}+{}", *chunk.column_index_offset,
                               chunk.column_index_length.value_or(0));
      }
      if (chunk.offset_index_offset) {
        offsets += fmt::format(" offset_index={}+{}", *chunk.offset_index_offset,
                               chunk.offset_index_length.value_or(0));
      }
      if (cm.bloom_filter_offset) {
        offsets += fmt::format(" bloom_filter={}", *cm.bloom_filter_offset);
        if (cm.bloom_filter_length) offsets += fmt::format("+{}", *cm.bloom_filter_length);
      }
      std::puts(offsets.c_str());
      if (cm.statistics) PrintStatistics(*cm.statistics, tree.node(column.node));
      if (cm.size_statistics && cm.size_statistics->unencoded_byte_array_data_bytes) {
        fmt::print("      unencoded_byte_array_data_bytes={}\n",
                   *cm.size_statistics->unencoded_byte_array_data_bytes);
      }
    }
  }
  return Ok();
}

}  // namespace

void AddInspectParquet(CLI::App& inspect, int& exit_code) {
  AddInspectFileCommand(inspect, "parquet",
                        "Print a Parquet file's schema, row groups, column chunks and statistics",
                        "The Parquet file", Inspect, exit_code);
}

}  // namespace floe::cli
