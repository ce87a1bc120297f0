#include "floe/format/parquet/writer/parquet_writer.h"

#include <cstring>

#include "floe/batch/take.h"
#include "floe/format/parquet/metadata_thrift.h"
#include "floe/format/parquet/schema.h"
#include "floe/format/parquet/writer/column_writer_internal.h"
#include "floe/io/file_io.h"

namespace floe::parquet {
namespace {

constexpr int64_t kSliceRows = 4096;

// The shape of one batch field as the shredder walks it. Maps are lists of their entries struct.
struct ShredNode {
  enum class Kind : uint8_t { kLeaf, kStruct, kList };
  Kind kind = Kind::kLeaf;
  bool nullable = true;
  int16_t repeated_rep = 0;  // lists: the repetition level of their elements
  int leaf = -1;
  std::vector<ShredNode> children;
};

ShredNode BuildNode(const Field& field, int16_t rep, std::vector<TypeKind>& leaf_kinds) {
  ShredNode node;
  node.nullable = field.nullable;
  const DataType& type = *field.type;
  switch (type.kind()) {
    case TypeKind::kStruct:
      node.kind = ShredNode::Kind::kStruct;
      for (const Field& child : type.fields()) {
        if (child.type->kind() == TypeKind::kNull) continue;
        node.children.push_back(BuildNode(child, rep, leaf_kinds));
      }
      break;
    case TypeKind::kList:
    case TypeKind::kMap:
      node.kind = ShredNode::Kind::kList;
      node.repeated_rep = static_cast<int16_t>(rep + 1);
      node.children.push_back(BuildNode(type.field(0), node.repeated_rep, leaf_kinds));
      break;
    default:
      node.leaf = static_cast<int>(leaf_kinds.size());
      leaf_kinds.push_back(type.kind());
      break;
  }
  return node;
}

// Turns the slots of one node's array into level entries for its leaves.
void Shred(const ShredNode& node, const Array& array, std::span<const LevelSlot> in,
           std::vector<std::unique_ptr<ColumnWriter>>& writers) {
  std::vector<LevelSlot> slots;
  slots.reserve(in.size());
  for (const LevelSlot& s : in) {
    if (s.idx < 0) {
      slots.push_back(s);
    } else if (node.nullable && array.IsNull(s.idx)) {
      slots.push_back({-1, s.def, s.rep});
    } else {
      slots.push_back({s.idx, static_cast<int16_t>(s.def + node.nullable), s.rep});
    }
  }
  switch (node.kind) {
    case ShredNode::Kind::kLeaf:
      writers[node.leaf]->Add(array, slots);
      return;
    case ShredNode::Kind::kStruct:
      for (size_t c = 0; c < node.children.size(); ++c) {
        Shred(node.children[c], array.field(static_cast<int>(c)), slots, writers);
      }
      return;
    case ShredNode::Kind::kList: {
      std::vector<LevelSlot> elements;
      elements.reserve(slots.size());
      for (const LevelSlot& s : slots) {
        int64_t length = s.idx < 0 ? 0 : array.ValueLength(s.idx);
        if (length == 0) {
          elements.push_back({-1, s.def, s.rep});
          continue;
        }
        int64_t begin = array.ValueOffset(s.idx);
        for (int64_t k = 0; k < length; ++k) {
          elements.push_back(
              {begin + k, static_cast<int16_t>(s.def + 1), k == 0 ? s.rep : node.repeated_rep});
        }
      }
      Shred(node.children[0], array.child(0), elements, writers);
      return;
    }
  }
}

}  // namespace

class ParquetWriter::Impl {
 public:
  std::unique_ptr<io::FileWriter> file;
  BatchSchemaPtr schema;
  WriterOptions options;
  std::vector<int> node_of_field;  // -1 for null-typed fields
  std::vector<ShredNode> nodes;
  std::shared_ptr<PageBuffers> page_buffers;  // the options', or the writer's own
  std::vector<std::unique_ptr<ColumnWriter>> writers;
  FileMetaData metadata;
  int64_t rows_in_group = 0;
  // Per row group, per column: written after the last row group (the page index) or right after
  // their row group (bloom filters).
  std::vector<std::vector<ChunkIndexes>> indexes;
  std::vector<int64_t> split_offsets;
  bool closed = false;
  // What this writer counts in page_buffers' held_bytes, and whether it counts in open_writers.
  int64_t held = 0;
  bool registered = false;

  ~Impl() { Release(); }

  int64_t Buffered() const {
    int64_t total = 0;
    for (const auto& w : writers) total += w->BufferedBytes();
    return total;
  }

  void Hold(int64_t bytes) {
    page_buffers->held_bytes += bytes - held;
    held = bytes;
  }
  void Release() {
    if (!registered) return;
    Hold(0);
    --page_buffers->open_writers;
    registered = false;
  }
  // The row group closes at its size, or early when the writers sharing the page buffers hold more
  // than their budget together and this one holds at least its share.
  bool RowGroupFull(int64_t buffered) const {
    if (buffered >= options.row_group_size_bytes) return true;
    const PageBuffers& shared = *page_buffers;
    return shared.open_writers > 1 && shared.held_bytes > shared.held_budget &&
           buffered * shared.open_writers >= shared.held_bytes;
  }

  Status FlushRowGroup() {
    if (rows_in_group == 0) return {};
    RowGroup group;
    group.num_rows = rows_in_group;
    int64_t start = file->position();
    group.file_offset = start;
    group.ordinal = static_cast<int16_t>(metadata.row_groups.size());
    int64_t compressed = 0;
    std::vector<ChunkIndexes>& group_indexes = indexes.emplace_back(writers.size());
    for (size_t c = 0; c < writers.size(); ++c) {
      FLOE_ASSIGN_OR_RETURN(ColumnChunk chunk, writers[c]->FinishChunk(*file, group_indexes[c]));
      group.columns.push_back(std::move(chunk));
      const ColumnMetaData& meta = group.columns.back().meta_data.value();
      group.total_byte_size += meta.total_uncompressed_size;
      compressed += meta.total_compressed_size;
    }
    group.total_compressed_size = compressed;
    for (size_t c = 0; c < writers.size(); ++c) {
      std::vector<std::byte>& bloom = group_indexes[c].bloom_filter;
      if (bloom.empty()) continue;
      group.columns[c].meta_data->bloom_filter_offset = file->position();
      group.columns[c].meta_data->bloom_filter_length = static_cast<int32_t>(bloom.size());
      FLOE_RETURN_IF_ERROR(file->Write(bloom));
      bloom = {};
    }
    metadata.num_rows += rows_in_group;
    metadata.row_groups.push_back(std::move(group));
    split_offsets.push_back(start);
    rows_in_group = 0;
    return {};
  }

  // n rows of batch: rows[k] for the k-th (rows == nullptr: row k), in slices of kSliceRows.
  Status Write(const RecordBatch& batch, int64_t n, const int64_t* rows) {
    if (closed) return InvalidArgument("{}: write after close", file->location());
    if (batch.schema() != schema && !batch.schema()->Equals(*schema)) {
      return InvalidArgument("{}: batch schema {} differs from the file's {}", file->location(),
                             batch.schema()->ToString(), schema->ToString());
    }
    std::vector<LevelSlot> slots;
    for (int64_t offset = 0; offset < n; offset += kSliceRows) {
      const int64_t length = std::min(kSliceRows, n - offset);
      const std::span<const int64_t> chosen =
          rows == nullptr ? std::span<const int64_t>()
                          : std::span(rows + offset, static_cast<size_t>(length));
      slots.clear();
      for (int c = 0; c < batch.num_columns(); ++c) {
        const int node = node_of_field[static_cast<size_t>(c)];
        if (node < 0) continue;
        const ShredNode& shred = nodes[static_cast<size_t>(node)];
        if (shred.kind == ShredNode::Kind::kLeaf) {
          ColumnWriter& leaf = *writers[static_cast<size_t>(shred.leaf)];
          if (rows == nullptr) {
            leaf.AddFlat(batch.column(c).Slice(offset, length));
          } else {
            leaf.AddRows(batch.column(c), chosen);
          }
          continue;
        }
        if (slots.empty()) {
          for (int64_t k = 0; k < length; ++k) {
            slots.push_back({rows == nullptr ? offset + k : chosen[static_cast<size_t>(k)], 0, 0});
          }
        }
        Shred(shred, batch.column(c), slots, writers);
      }
      rows_in_group += length;
      const int64_t buffered = Buffered();
      Hold(buffered);
      if (RowGroupFull(buffered)) {
        FLOE_RETURN_IF_ERROR(FlushRowGroup());
        Hold(Buffered());
      }
    }
    return {};
  }

  // Column indexes, then offset indexes, of every chunk (as parquet-mr lays them out).
  Status WritePageIndex() {
    if (!options.page_index) return {};
    for (size_t g = 0; g < indexes.size(); ++g) {
      for (size_t c = 0; c < indexes[g].size(); ++c) {
        if (!indexes[g][c].column_index) continue;
        std::vector<std::byte> bytes = EncodeColumnIndex(*indexes[g][c].column_index);
        ColumnChunk& chunk = metadata.row_groups[g].columns[c];
        chunk.column_index_offset = file->position();
        chunk.column_index_length = static_cast<int32_t>(bytes.size());
        FLOE_RETURN_IF_ERROR(file->Write(bytes));
      }
    }
    for (size_t g = 0; g < indexes.size(); ++g) {
      for (size_t c = 0; c < indexes[g].size(); ++c) {
        std::vector<std::byte> bytes = EncodeOffsetIndex(indexes[g][c].offset_index);
        ColumnChunk& chunk = metadata.row_groups[g].columns[c];
        chunk.offset_index_offset = file->position();
        chunk.offset_index_length = static_cast<int32_t>(bytes.size());
        FLOE_RETURN_IF_ERROR(file->Write(bytes));
      }
    }
    indexes.clear();
    return {};
  }
};

ParquetWriter::ParquetWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ParquetWriter::~ParquetWriter() = default;

Result<std::unique_ptr<ParquetWriter>> ParquetWriter::Make(std::unique_ptr<io::FileWriter> file,
                                                           BatchSchemaPtr schema,
                                                           WriterOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->options = std::move(options);
  const WriterOptions& opts = impl->options;
  impl->page_buffers = opts.page_buffers ? opts.page_buffers : std::make_shared<PageBuffers>();
  FLOE_ASSIGN_OR_RETURN(impl->metadata.schema, MakeParquetSchema(*schema, opts));
  FLOE_ASSIGN_OR_RETURN(SchemaTree tree, SchemaTree::Make(impl->metadata.schema));
  std::vector<TypeKind> leaf_kinds;
  for (const Field& field : schema->fields()) {
    if (field.type->kind() == TypeKind::kNull) {
      impl->node_of_field.push_back(-1);
      continue;
    }
    impl->node_of_field.push_back(static_cast<int>(impl->nodes.size()));
    impl->nodes.push_back(BuildNode(field, 0, leaf_kinds));
  }
  for (size_t i = 0; i < tree.columns().size(); ++i) {
    const ColumnDescriptor& column = tree.columns()[i];
    const SchemaNode& node = tree.node(column.node);
    LeafSpec spec;
    spec.path = column.path;
    spec.field_id = node.field_id;
    spec.physical_type = column.physical_type;
    spec.type_length = column.type_length;
    spec.max_def = column.max_definition_level;
    spec.max_rep = column.max_repetition_level;
    spec.kind = leaf_kinds[i];
    spec.unsigned_order = node.logical_type &&
                          node.logical_type->kind == LogicalType::Kind::kInteger &&
                          !node.logical_type->is_signed;
    spec.float16 = spec.kind == TypeKind::kFloat16;
    spec.decimal_bytes = spec.kind == TypeKind::kDecimal128 &&
                         spec.physical_type == PhysicalType::kFixedLenByteArray;
    spec.metrics = opts.default_metrics;
    if (node.field_id) {
      auto it = opts.field_metrics.find(*node.field_id);
      if (it != opts.field_metrics.end()) spec.metrics = it->second;
    }
    impl->metadata.column_orders.push_back(ColumnOrder::kTypeDefined);
    impl->writers.push_back(ColumnWriter::Make(std::move(spec), opts, *impl->page_buffers));
  }
  impl->file = std::move(file);
  impl->schema = std::move(schema);
  impl->metadata.version = impl->options.data_page_v2 ? 2 : 1;
  impl->metadata.created_by = impl->options.created_by;
  impl->metadata.key_value_metadata = impl->options.key_value_metadata;
  FLOE_RETURN_IF_ERROR(impl->file->Write(std::string_view("PAR1")));
  ++impl->page_buffers->open_writers;
  impl->registered = true;
  return std::unique_ptr<ParquetWriter>(new ParquetWriter(std::move(impl)));
}

Status ParquetWriter::Write(const RecordBatch& batch) {
  return impl_->Write(batch, batch.num_rows(), nullptr);
}

Status ParquetWriter::Write(const RecordBatch& batch, std::span<const int64_t> rows) {
  if (Status checked = CheckRows(rows, batch.num_rows()); !checked) {
    return InvalidArgument("{}: {}", impl_->file->location(), checked.error().message());
  }
  return impl_->Write(batch, static_cast<int64_t>(rows.size()), rows.data());
}

int64_t ParquetWriter::EstimatedSize() const { return impl_->file->position() + impl_->Buffered(); }

Result<WriteResult> ParquetWriter::Close() {
  Impl& w = *impl_;
  if (w.closed) return InvalidArgument("{}: closed twice", w.file->location());
  w.closed = true;
  Status flushed = w.FlushRowGroup();
  w.Release();
  FLOE_RETURN_IF_ERROR(flushed);
  FLOE_RETURN_IF_ERROR(w.WritePageIndex());
  std::vector<std::byte> footer = EncodeFileMetaData(w.metadata);
  auto length = static_cast<uint32_t>(footer.size());
  char tail[8];
  std::memcpy(tail, &length, 4);
  std::memcpy(tail + 4, "PAR1", 4);
  FLOE_RETURN_IF_ERROR(w.file->Write(footer));
  FLOE_RETURN_IF_ERROR(w.file->Write(std::string_view(tail, 8)));
  WriteResult result;
  result.file_size = w.file->position();
  FLOE_RETURN_IF_ERROR(w.file->Close());
  result.row_count = w.metadata.num_rows;
  result.split_offsets = w.split_offsets;
  for (const auto& writer : w.writers) {
    ColumnMetrics metrics;
    writer->FillMetrics(metrics);
    result.columns.push_back(std::move(metrics));
  }
  result.metadata = std::move(w.metadata);
  return result;
}

}  // namespace floe::parquet
