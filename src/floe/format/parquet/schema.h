#pragma once

// The Parquet schema as a tree. The footer stores the schema as a flat, depth-first list of
// SchemaElements where each group says how many children follow; SchemaTree rebuilds the tree and
// computes, for every node, the maximum definition and repetition levels, and for every leaf (a
// column chunk in each row group) its path. Field ids (Iceberg's) are kept as written. Make fails
// with kCorruptData when the list does not form one tree (child counts that overrun the list,
// leftover elements, leaves without a physical type, nesting deeper than kMaxDepth).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "floe/format/parquet/metadata.h"
#include "floe/util/error.h"

namespace floe::parquet {

struct SchemaNode {
  std::string name;
  Repetition repetition = Repetition::kRequired;  // the root counts as required
  std::optional<PhysicalType> physical_type;      // leaves only
  int32_t type_length = 0;                        // FIXED_LEN_BYTE_ARRAY width
  std::optional<ConvertedType> converted_type;
  std::optional<LogicalType> logical_type;
  std::optional<int32_t> field_id;
  int32_t scale = 0;
  int32_t precision = 0;
  // The levels a value of this node has when it is present: each optional or repeated ancestor
  // (itself included) adds one definition level, each repeated one a repetition level.
  int16_t max_definition_level = 0;
  int16_t max_repetition_level = 0;
  int parent = -1;            // index in SchemaTree::nodes(); -1 for the root
  std::vector<int> children;  // indices in SchemaTree::nodes()
  int column = -1;            // for leaves, the column index in row groups

  bool is_leaf() const { return physical_type.has_value(); }
};

struct ColumnDescriptor {
  int node = 0;  // the leaf's index in SchemaTree::nodes()
  std::vector<std::string> path;
  PhysicalType physical_type = PhysicalType::kBoolean;
  int32_t type_length = 0;
  int16_t max_definition_level = 0;
  int16_t max_repetition_level = 0;

  std::string dotted_path() const;
};

class SchemaTree {
 public:
  static constexpr int kMaxDepth = 100;

  static Result<SchemaTree> Make(std::span<const SchemaElement> elements);

  const std::vector<SchemaNode>& nodes() const { return nodes_; }
  const SchemaNode& node(int index) const { return nodes_[index]; }
  const SchemaNode& root() const { return nodes_[0]; }
  const std::vector<ColumnDescriptor>& columns() const { return columns_; }

  // The node with this field id, or -1.
  int FindFieldId(int32_t field_id) const;
  // The column with this path (names from below the root), or -1.
  int FindColumn(std::span<const std::string> path) const;

 private:
  std::vector<SchemaNode> nodes_;
  std::vector<ColumnDescriptor> columns_;
};

// Checks that each row group has one column chunk per leaf, with matching path and type.
Status CheckRowGroups(const FileMetaData& metadata, const SchemaTree& schema);

}  // namespace floe::parquet
