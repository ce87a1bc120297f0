#include "floe/format/parquet/schema.h"

#include <fmt/format.h>

#include <algorithm>

namespace floe::parquet {

std::string ColumnDescriptor::dotted_path() const {
  return fmt::format("{}", fmt::join(path, "."));
}

namespace {

struct Builder {
  std::span<const SchemaElement> elements;
  std::vector<SchemaNode>& nodes;
  std::vector<ColumnDescriptor>& columns;
  std::vector<std::string> path;
  size_t next = 0;

  // Adds the element at `next` (and its subtree) under parent.
  Result<int> Add(int parent, int depth) {
    if (depth > SchemaTree::kMaxDepth) {
      return CorruptData("schema nested deeper than {}", SchemaTree::kMaxDepth);
    }
    if (next >= elements.size()) {
      return CorruptData("schema element {} expected but the list has {}", next, elements.size());
    }
    size_t element_index = next++;
    const SchemaElement& e = elements[element_index];
    SchemaNode node;
    node.name = e.name;
    node.parent = parent;
    node.type_length = e.type_length.value_or(0);
    node.converted_type = e.converted_type;
    node.logical_type = e.logical_type;
    node.field_id = e.field_id;
    node.scale = e.scale.value_or(0);
    node.precision = e.precision.value_or(0);
    if (parent >= 0) {
      if (!e.repetition_type) {
        return CorruptData("schema element {} ('{}') has no repetition type", element_index,
                           e.name);
      }
      node.repetition = *e.repetition_type;
      if (node.repetition != Repetition::kRequired && node.repetition != Repetition::kOptional &&
          node.repetition != Repetition::kRepeated) {
        return CorruptData("schema element {} ('{}') has repetition {}", element_index, e.name,
                           static_cast<int32_t>(node.repetition));
      }
      const SchemaNode& p = nodes[parent];
      node.max_definition_level = static_cast<int16_t>(
          p.max_definition_level + (node.repetition != Repetition::kRequired ? 1 : 0));
      node.max_repetition_level = static_cast<int16_t>(
          p.max_repetition_level + (node.repetition == Repetition::kRepeated ? 1 : 0));
      path.push_back(e.name);
    }
    int index = static_cast<int>(nodes.size());
    bool is_group = parent < 0 || !e.type || e.num_children.value_or(0) > 0;
    if (is_group) {
      nodes.push_back(std::move(node));
      int32_t count = e.num_children.value_or(0);
      if (count < 0 || static_cast<size_t>(count) > elements.size() - next) {
        return CorruptData("schema element {} ('{}') claims {} children, {} elements follow",
                           element_index, e.name, count, elements.size() - next);
      }
      for (int32_t i = 0; i < count; ++i) {
        FLOE_ASSIGN_OR_RETURN(int child, Add(index, depth + 1));
        nodes[index].children.push_back(child);
      }
    } else {
      auto physical = static_cast<int32_t>(*e.type);
      if (physical < 0 || physical > static_cast<int32_t>(PhysicalType::kFixedLenByteArray)) {
        return CorruptData("schema leaf {} ('{}') has physical type {}", element_index, e.name,
                           physical);
      }
      if (*e.type == PhysicalType::kFixedLenByteArray && node.type_length <= 0) {
        return CorruptData("schema leaf {} ('{}') is FIXED_LEN_BYTE_ARRAY of length {}",
                           element_index, e.name, node.type_length);
      }
      node.physical_type = e.type;
      node.column = static_cast<int>(columns.size());
      ColumnDescriptor column;
      column.node = index;
      column.path = path;
      column.physical_type = *e.type;
      column.type_length = node.type_length;
      column.max_definition_level = node.max_definition_level;
      column.max_repetition_level = node.max_repetition_level;
      columns.push_back(std::move(column));
      nodes.push_back(std::move(node));
    }
    if (parent >= 0) path.pop_back();
    return index;
  }
};

}  // namespace

Result<SchemaTree> SchemaTree::Make(std::span<const SchemaElement> elements) {
  if (elements.empty()) return CorruptData("schema: no elements");
  SchemaTree tree;
  Builder builder{elements, tree.nodes_, tree.columns_, {}};
  auto root = builder.Add(-1, 0);
  if (!root) return std::unexpected(std::move(root.error().AddContext("schema")));
  if (builder.next != elements.size()) {
    return CorruptData("schema: {} elements left over after the root's {} descendants",
                       elements.size() - builder.next, builder.next - 1);
  }
  return tree;
}

int SchemaTree::FindFieldId(int32_t field_id) const {
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i].field_id == field_id) return static_cast<int>(i);
  }
  return -1;
}

int SchemaTree::FindColumn(std::span<const std::string> path) const {
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (std::ranges::equal(columns_[i].path, path)) return static_cast<int>(i);
  }
  return -1;
}

Status CheckRowGroups(const FileMetaData& metadata, const SchemaTree& schema) {
  const auto& columns = schema.columns();
  for (size_t g = 0; g < metadata.row_groups.size(); ++g) {
    const RowGroup& group = metadata.row_groups[g];
    if (group.columns.size() != columns.size()) {
      return CorruptData("row group {} has {} column chunks for {} schema columns", g,
                         group.columns.size(), columns.size());
    }
    if (group.num_rows < 0) return CorruptData("row group {} has {} rows", g, group.num_rows);
    for (size_t c = 0; c < columns.size(); ++c) {
      const ColumnChunk& chunk = group.columns[c];
      if (!chunk.meta_data) {
        return CorruptData("row group {} column {} ('{}') has no metadata", g, c,
                           columns[c].dotted_path());
      }
      const ColumnMetaData& m = *chunk.meta_data;
      if (m.type != columns[c].physical_type) {
        return CorruptData("row group {} column {} ('{}') is {}, the schema says {}", g, c,
                           columns[c].dotted_path(), PhysicalTypeName(m.type),
                           PhysicalTypeName(columns[c].physical_type));
      }
      if (m.num_values < 0 || m.total_compressed_size < 0 || m.data_page_offset < 0 ||
          m.dictionary_page_offset.value_or(0) < 0) {
        return CorruptData("row group {} column {} ('{}') has negative sizes or offsets", g, c,
                           columns[c].dotted_path());
      }
    }
  }
  return Ok();
}

}  // namespace floe::parquet
