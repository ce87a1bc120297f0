#include "floe/format/parquet/reader/batch_reader.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <span>

#include "floe/batch/builder.h"
#include "floe/format/parquet/bloom_filter.h"
#include "floe/format/parquet/file_reader.h"
#include "floe/format/parquet/metadata_thrift.h"
#include "floe/format/parquet/reader/flat_column_internal.h"
#include "floe/format/parquet/reader/input_file_source.h"
#include "floe/format/parquet/reader/leaf_conversion_internal.h"
#include "floe/format/parquet/reader/schema_mapping.h"
#include "floe/io/file_io.h"

namespace floe::parquet {

namespace {

// A nested leaf's decoded non-null values for one row group, in the builder's representation.
class ValueStore {
 public:
  virtual ~ValueStore() = default;
  virtual size_t size() const = 0;
  // Empties the store, keeping its memory for the next row group.
  virtual void Clear() = 0;
  virtual void AppendOne(ArrayBuilder& builder, size_t i) const = 0;
};

template <typename T, typename B>
class FixedStore final : public ValueStore {
 public:
  size_t size() const override { return values.size(); }
  void Clear() override { values.clear(); }
  void AppendOne(ArrayBuilder& builder, size_t i) const override {
    static_cast<B&>(builder).Append(values[i]);
  }

  std::vector<T> values;
};

class BoolStore final : public ValueStore {
 public:
  size_t size() const override { return values.size(); }
  void Clear() override { values.clear(); }
  void AppendOne(ArrayBuilder& builder, size_t i) const override {
    static_cast<BooleanBuilder&>(builder).Append(values[i] != 0);
  }

  std::vector<uint8_t> values;
};

template <typename B>
class BytesStore final : public ValueStore {
 public:
  size_t size() const override { return offsets.size() - 1; }
  void Clear() override {
    offsets.resize(1);
    data.clear();
  }
  std::string_view View(size_t i) const {
    return std::string_view(data).substr(offsets[i], offsets[i + 1] - offsets[i]);
  }
  void AppendOne(ArrayBuilder& builder, size_t i) const override {
    static_cast<B&>(builder).Append(View(i));
  }
  void Add(std::string_view value) {
    data.append(value);
    offsets.push_back(data.size());
  }

  std::vector<size_t> offsets{0};
  std::string data;
};

// UNKNOWN-typed leaves: every row is null, whatever the file holds.
class NullStore final : public ValueStore {
 public:
  size_t size() const override { return count; }
  void Clear() override { count = 0; }
  void AppendOne(ArrayBuilder& builder, size_t) const override { builder.AppendNull(); }
  size_t count = 0;
};

}  // namespace

struct ParquetBatchReader::ColumnData {
  std::string name;
  int64_t data_offset = 0;  // where the chunk's data pages start, for errors
  int16_t max_def = 0;
  int16_t max_rep = 0;
  std::vector<int16_t> def;
  std::vector<int16_t> rep;
  size_t entries = 0;
  size_t pos = 0;
  size_t value_pos = 0;
  std::unique_ptr<ValueStore> values;
  // Set when only some rows of the row group are read (page skipping).
  std::optional<ChunkRowSelection> selection;
  std::optional<OffsetIndex> offset_index;

  int16_t DefAt() const { return max_def == 0 ? 0 : def[pos]; }
  int16_t RepAt() const { return max_rep == 0 ? 0 : rep[pos]; }
};

namespace {

using ColumnData = ParquetBatchReader::ColumnData;

// The column's store of type S from the previous row group, emptied, or a new one.
template <typename S>
S& ReusedStore(ColumnData& data) {
  if (auto* store = dynamic_cast<S*>(data.values.get())) {
    store->Clear();
    return *store;
  }
  data.values = std::make_unique<S>();
  return static_cast<S&>(*data.values);
}

// How many level entries the chunk holds, as far as reserving memory up front: bounded, since the
// count comes from the file.
size_t ReserveHint(const FileReader& file, size_t row_group, int column) {
  constexpr int64_t kMaxReserve = 1 << 22;
  const auto& meta = file.metadata().row_groups[row_group].columns[column].meta_data;
  if (!meta) return 0;
  return static_cast<size_t>(std::clamp<int64_t>(meta->num_values, 0, kMaxReserve));
}

// Reads a whole column chunk's levels, handing its values to sink in pieces.
template <typename P, typename Sink>
Status ReadChunk(const FileReader& file, size_t row_group, int column, ColumnData& data,
                 Sink&& sink) {
  FLOE_ASSIGN_OR_RETURN(auto reader,
                        file.ReadColumn<P>(row_group, static_cast<size_t>(column),
                                           data.selection ? &*data.selection : nullptr));
  constexpr size_t kPiece = 4096;
  std::unique_ptr<P[]> buffer(new P[kPiece]);
  const size_t hint = ReserveHint(file, row_group, column);
  if (data.max_def > 0) data.def.reserve(hint);
  if (data.max_rep > 0) data.rep.reserve(hint);
  while (true) {
    const size_t old = data.entries;
    if (data.max_def > 0) data.def.resize(old + kPiece);
    if (data.max_rep > 0) data.rep.resize(old + kPiece);
    FLOE_ASSIGN_OR_RETURN(
        BatchCounts counts,
        reader->ReadBatch(kPiece, data.max_def > 0 ? data.def.data() + old : nullptr,
                          data.max_rep > 0 ? data.rep.data() + old : nullptr, buffer.get()));
    data.entries += counts.levels;
    sink(std::span<const P>(buffer.get(), counts.values));
    if (counts.levels == 0) break;
  }
  if (data.max_def > 0) data.def.resize(data.entries);
  if (data.max_rep > 0) data.rep.resize(data.entries);
  return Ok();
}

template <typename P, typename T, typename B, typename Convert>
Status LoadFixed(const FileReader& file, size_t row_group, int column, ColumnData& data,
                 Convert convert) {
  auto* store = &ReusedStore<FixedStore<T, B>>(data);
  store->values.reserve(ReserveHint(file, row_group, column));
  FLOE_RETURN_IF_ERROR(ReadChunk<P>(file, row_group, column, data, [&](std::span<const P> values) {
    const size_t old = store->values.size();
    store->values.resize(old + values.size());
    std::transform(values.begin(), values.end(), store->values.begin() + old, convert);
  }));
  return Ok();
}

template <typename B>
Status LoadBytes(const FileReader& file, size_t row_group, int column, ColumnData& data) {
  auto* store = &ReusedStore<BytesStore<B>>(data);
  store->offsets.reserve(ReserveHint(file, row_group, column) + 1);
  FLOE_RETURN_IF_ERROR(
      ReadChunk<ByteArray>(file, row_group, column, data, [&](std::span<const ByteArray> values) {
        for (ByteArray v : values) store->Add(v);
      }));
  return Ok();
}

template <typename P>
Status LoadNullTyped(const FileReader& file, size_t row_group, int column, ColumnData& data) {
  auto* store = &ReusedStore<NullStore>(data);
  FLOE_RETURN_IF_ERROR(ReadChunk<P>(file, row_group, column, data, [&](std::span<const P> values) {
    store->count += values.size();
  }));
  return Ok();
}

Status LoadNull(const FileReader& file, size_t row_group, int column, ColumnData& data) {
  switch (file.schema().columns()[column].physical_type) {
    case PhysicalType::kBoolean:
      return LoadNullTyped<bool>(file, row_group, column, data);
    case PhysicalType::kInt32:
      return LoadNullTyped<int32_t>(file, row_group, column, data);
    case PhysicalType::kInt64:
      return LoadNullTyped<int64_t>(file, row_group, column, data);
    case PhysicalType::kInt96:
      return LoadNullTyped<Int96>(file, row_group, column, data);
    case PhysicalType::kFloat:
      return LoadNullTyped<float>(file, row_group, column, data);
    case PhysicalType::kDouble:
      return LoadNullTyped<double>(file, row_group, column, data);
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      return LoadNullTyped<ByteArray>(file, row_group, column, data);
  }
  return CorruptData("column {}: unknown physical type", data.name);
}

// Loads a column chunk's levels and values for the record assembler.
struct ColumnLoader {
  const FileReader& file;
  size_t row_group;
  int column;
  ColumnData& data;

  template <typename P, typename T, typename B, typename Convert>
  Status Fixed(Convert convert) {
    return LoadFixed<P, T, B>(file, row_group, column, data, convert);
  }
  Status Bool() {
    auto* store = &ReusedStore<BoolStore>(data);
    return ReadChunk<bool>(file, row_group, column, data, [&](std::span<const bool> values) {
      for (bool v : values) store->values.push_back(v);
    });
  }
  template <typename B>
  Status Bytes() {
    return LoadBytes<B>(file, row_group, column, data);
  }
  Status Null() { return LoadNull(file, row_group, column, data); }
};

// Assembles nested values from the columns' levels (Dremel record assembly): a node's presence is
// read from the definition level of its first column; a null or empty node holds exactly one level
// entry in every column below it; a list continues while its first column's next entry repeats at
// the list's repetition level.
class Assembler {
 public:
  Assembler(std::vector<std::unique_ptr<ColumnData>>& columns, const std::string& where)
      : columns_(columns), where_(where) {}

  Status Read(const ReadNode& node, ArrayBuilder& builder) {
    if (node.kind == ReadNode::Kind::kNull || node.columns.empty()) {
      builder.AppendNull();
      return Ok();
    }
    ColumnData& first = *columns_[node.columns[0]];
    if (first.pos >= first.entries) return Exhausted(first);
    const int16_t def = first.DefAt();
    switch (node.kind) {
      case ReadNode::Kind::kLeaf: {
        if (def >= first.max_def) {
          if (first.value_pos >= first.values->size()) return Exhausted(first);
          first.values->AppendOne(builder, first.value_pos++);
        } else {
          builder.AppendNull();
        }
        ++first.pos;
        return Ok();
      }
      case ReadNode::Kind::kStruct: {
        if (def < node.def_level) {
          builder.AppendNull();
          return Skip(node);
        }
        auto& typed = static_cast<StructBuilder&>(builder);
        for (size_t i = 0; i < node.children.size(); ++i) {
          FLOE_RETURN_IF_ERROR(Read(node.children[i], *typed.field_builder(static_cast<int>(i))));
        }
        typed.Append();
        return Ok();
      }
      case ReadNode::Kind::kList:
      case ReadNode::Kind::kMap: {
        if (def < node.def_level) {
          builder.AppendNull();
          return Skip(node);
        }
        const bool is_list = node.kind == ReadNode::Kind::kList;
        if (is_list) {
          static_cast<ListBuilder&>(builder).Append();
        } else {
          static_cast<MapBuilder&>(builder).Append();
        }
        if (def < node.elements_def_level) return Skip(node);
        while (true) {
          if (is_list) {
            FLOE_RETURN_IF_ERROR(
                Read(node.children[0], *static_cast<ListBuilder&>(builder).value_builder()));
          } else {
            auto& map = static_cast<MapBuilder&>(builder);
            FLOE_RETURN_IF_ERROR(Read(node.children[0], *map.key_builder()));
            FLOE_RETURN_IF_ERROR(Read(node.children[1], *map.item_builder()));
          }
          if (first.pos >= first.entries || first.RepAt() != node.rep_level) break;
        }
        return Ok();
      }
      case ReadNode::Kind::kNull:
        break;
    }
    return Ok();
  }

 private:
  Status Skip(const ReadNode& node) {
    for (int column : node.columns) {
      ColumnData& data = *columns_[column];
      if (data.pos >= data.entries) return Exhausted(data);
      if (data.DefAt() >= data.max_def) ++data.value_pos;
      ++data.pos;
    }
    return Ok();
  }

  Status Exhausted(const ColumnData& data) const {
    return CorruptData(
        "{}: column {} (data pages from offset {}) has fewer level entries or values than its rows "
        "need",
        where_, data.name, data.data_offset);
  }

  std::vector<std::unique_ptr<ColumnData>>& columns_;
  const std::string& where_;
};

const ReadNode* FindTopLevel(const std::vector<ReadNode>& nodes, const std::string& name,
                             std::optional<int32_t> field_id) {
  for (const ReadNode& node : nodes) {
    if (field_id ? node.field.field_id == field_id : node.field.name == name) return &node;
  }
  return nullptr;
}

}  // namespace

ParquetBatchReader::ParquetBatchReader(std::unique_ptr<FileReader> file, ReadOptions options)
    : file_(std::move(file)), options_(std::move(options)) {}

ParquetBatchReader::~ParquetBatchReader() = default;

Result<std::unique_ptr<ParquetBatchReader>> ParquetBatchReader::Open(
    std::unique_ptr<FileReader> file, ReadOptions options) {
  if (options.batch_rows <= 0) {
    return InvalidArgument("batch_rows must be positive, got {}", options.batch_rows);
  }
  auto reader = std::make_unique<ParquetBatchReader>(std::move(file), std::move(options));
  FLOE_RETURN_IF_ERROR(reader->Init());
  return reader;
}

Result<std::unique_ptr<ParquetBatchReader>> ParquetBatchReader::Open(
    std::shared_ptr<io::InputFile> file, ReadOptions options) {
  FLOE_ASSIGN_OR_RETURN(auto source, MakeInputFileSource(std::move(file)));
  FLOE_ASSIGN_OR_RETURN(auto reader, FileReader::Open(std::move(source)));
  return Open(std::move(reader), std::move(options));
}

Result<std::unique_ptr<ParquetBatchReader>> ParquetBatchReader::OpenPath(const std::string& path,
                                                                         ReadOptions options) {
  FLOE_ASSIGN_OR_RETURN(auto reader, FileReader::OpenPath(path));
  return Open(std::move(reader), std::move(options));
}

Status ParquetBatchReader::Init() {
  MappingOptions mapping;
  mapping.int96_unit = options_.int96_unit;
  auto mapped = MapSchema(file_->schema(), mapping);
  if (!mapped) return std::unexpected(std::move(mapped.error().AddContext(file_->source().name())));
  std::vector<Field> fields;
  if (options_.select.empty()) {
    for (ReadNode& node : *mapped) {
      fields.push_back(node.field);
      nodes_.push_back(std::make_unique<ReadNode>(std::move(node)));
    }
  } else {
    for (const Field& wanted : options_.select) {
      const ReadNode* node = FindTopLevel(*mapped, wanted.name, wanted.field_id);
      if (node) {
        fields.push_back(node->field);
        nodes_.push_back(std::make_unique<ReadNode>(*node));
      } else {
        Field missing = wanted;
        if (!missing.type) missing.type = DataType::Null();
        missing.nullable = true;
        fields.push_back(std::move(missing));
        nodes_.push_back(nullptr);
      }
    }
  }
  std::vector<bool> needed(file_->schema().columns().size(), false);
  for (const auto& node : nodes_) {
    if (!node) continue;
    for (int column : node->columns) needed[column] = true;
  }
  for (size_t i = 0; i < needed.size(); ++i) {
    if (needed[i]) needed_columns_.push_back(static_cast<int>(i));
  }
  columns_.resize(needed.size());
  is_flat_.assign(needed.size(), false);
  flat_.resize(needed.size());
  // A flat reader feeds one builder: a column that two selected fields share stays with the
  // assembler.
  std::vector<int> uses(needed.size(), 0);
  for (const auto& node : nodes_) {
    if (!node) continue;
    for (int column : node->columns) ++uses[column];
  }
  for (const auto& node : nodes_) {
    if (node && node->kind == ReadNode::Kind::kLeaf && uses[node->column] == 1 &&
        file_->schema().columns()[node->column].max_repetition_level == 0) {
      is_flat_[node->column] = true;
    }
  }
  schema_ = std::make_shared<BatchSchema>(std::move(fields));
  int64_t first_row = 0;
  for (const RowGroup& group : file_->metadata().row_groups) {
    group_first_row_.push_back(first_row);
    first_row += group.num_rows;
  }
  return Ok();
}

namespace {

// The row group's min and max of a column, as the predicate's literal kind.
template <typename T>
std::optional<T> DecodeStat(const std::string& bytes) {
  if (bytes.size() != sizeof(T)) return std::nullopt;
  T value;
  std::memcpy(&value, bytes.data(), sizeof(T));
  return value;
}

template <typename T>
bool RangeMayMatch(ColumnPredicate::Op op, const T& min, const T& max, const T& v) {
  using Op = ColumnPredicate::Op;
  switch (op) {
    case Op::kEq:
      return !(v < min) && !(max < v);
    case Op::kLt:
      return min < v;
    case Op::kLe:
      return !(v < min);
    case Op::kGt:
      return v < max;
    case Op::kGe:
      return !(max < v);
    default:
      return true;
  }
}

// The hash an equality literal has in the column's bloom filter; none when the literal's kind does
// not match the column's physical type (the filter then proves nothing).
std::optional<uint64_t> BloomHashOf(PhysicalType type, const ColumnPredicate& predicate) {
  const auto* i = std::get_if<int64_t>(&predicate.value);
  const auto* d = std::get_if<double>(&predicate.value);
  const auto* b = std::get_if<std::string>(&predicate.value);
  switch (type) {
    case PhysicalType::kInt32:
      if (i && *i >= INT32_MIN && *i <= INT32_MAX) return BloomHashInt32(static_cast<int32_t>(*i));
      return std::nullopt;
    case PhysicalType::kInt64:
      if (i) return BloomHashInt64(*i);
      return std::nullopt;
    case PhysicalType::kFloat:
      if (d && !std::isnan(*d) && *d != 0 && static_cast<double>(static_cast<float>(*d)) == *d) {
        return BloomHashFloat(static_cast<float>(*d));
      }
      return std::nullopt;
    case PhysicalType::kDouble:
      // Zeros and NaNs have more than one bit pattern: the filter holds only those written.
      if (d && !std::isnan(*d) && *d != 0) return BloomHashDouble(*d);
      return std::nullopt;
    case PhysicalType::kByteArray:
      if (b) return BloomHashBytes(*b);
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

// False when the chunk's bloom filter proves that no value equals the predicate's literal.
Result<bool> BloomFilterMayMatch(const FileReader& file, const ColumnChunk& chunk,
                                 const ColumnDescriptor& descriptor,
                                 const ColumnPredicate& predicate) {
  if (predicate.op != ColumnPredicate::Op::kEq || !chunk.meta_data ||
      !chunk.meta_data->bloom_filter_offset) {
    return true;
  }
  std::optional<uint64_t> hash = BloomHashOf(descriptor.physical_type, predicate);
  if (!hash) return true;
  const int64_t offset = *chunk.meta_data->bloom_filter_offset;
  const uint64_t file_size = file.source().size();
  if (offset < 0 || static_cast<uint64_t>(offset) >= file_size) {
    return CorruptData("{}: column {}: bloom filter offset {} is outside the file",
                       file.source().name(), descriptor.dotted_path(), offset);
  }
  // Without a length, the header is read first: it is a few bytes.
  uint64_t length = chunk.meta_data->bloom_filter_length
                        ? static_cast<uint64_t>(std::max(0, *chunk.meta_data->bloom_filter_length))
                        : std::min<uint64_t>(64, file_size - static_cast<uint64_t>(offset));
  length = std::min<uint64_t>(length, file_size - static_cast<uint64_t>(offset));
  FLOE_ASSIGN_OR_RETURN(std::vector<std::byte> bytes,
                        file.source().Read(static_cast<uint64_t>(offset), length));
  auto header = DecodeBloomFilterHeader(bytes);
  if (!header) {
    return std::unexpected(std::move(header.error().AddContext(
        fmt::format("{}: column {}: bloom filter at offset {}", file.source().name(),
                    descriptor.dotted_path(), offset))));
  }
  const BloomFilterHeader& h = header->header;
  // Only the one algorithm, hash and compression the format defines so far.
  if (h.algorithm != 1 || h.hash != 1 || h.compression != 1 || h.num_bytes < 0) return true;
  uint64_t end = header->size + static_cast<uint64_t>(h.num_bytes);
  if (end > file_size - static_cast<uint64_t>(offset)) {
    return CorruptData("{}: column {}: bloom filter at offset {} runs past the end of the file",
                       file.source().name(), descriptor.dotted_path(), offset);
  }
  if (end > bytes.size()) {
    FLOE_ASSIGN_OR_RETURN(bytes, file.source().Read(static_cast<uint64_t>(offset), end));
  }
  auto filter = SplitBlockBloomFilter::FromBytes(
      std::span(bytes).subspan(header->size, static_cast<size_t>(h.num_bytes)));
  if (!filter) {
    return std::unexpected(std::move(filter.error().AddContext(
        fmt::format("{}: column {}", file.source().name(), descriptor.dotted_path()))));
  }
  return filter->MightContain(*hash);
}

}  // namespace

bool ParquetBatchReader::InByteRange(size_t row_group) const {
  if (!options_.byte_range) return true;
  const RowGroup& group = file_->metadata().row_groups[row_group];
  if (group.columns.empty() || !group.columns[0].meta_data) return false;
  const ColumnMetaData& first = *group.columns[0].meta_data;
  const int64_t start = first.dictionary_page_offset && *first.dictionary_page_offset > 0
                            ? std::min(*first.dictionary_page_offset, first.data_page_offset)
                            : first.data_page_offset;
  const auto [range_start, range_length] = *options_.byte_range;
  return start >= range_start && start - range_start < range_length;
}

int ParquetBatchReader::PredicateColumn(const ColumnPredicate& predicate) const {
  // Predicates refer to top-level primitive columns only.
  for (const ColumnDescriptor& descriptor : file_->schema().columns()) {
    const SchemaNode& leaf = file_->schema().node(descriptor.node);
    if (descriptor.path.size() != 1 || descriptor.max_repetition_level != 0) continue;
    if (predicate.field_id ? leaf.field_id == predicate.field_id
                           : descriptor.path[0] == predicate.column) {
      return leaf.column;
    }
  }
  return -1;
}

bool ParquetBatchReader::MinMaxMayMatch(int column, const ColumnPredicate& predicate,
                                        const std::string& min, const std::string& max) const {
  const ColumnDescriptor& descriptor = file_->schema().columns()[column];
  const SchemaNode& leaf = file_->schema().node(descriptor.node);
  const bool is_unsigned =
      (leaf.logical_type && leaf.logical_type->kind == LogicalType::Kind::kInteger &&
       !leaf.logical_type->is_signed) ||
      leaf.converted_type == ConvertedType::kUint8 ||
      leaf.converted_type == ConvertedType::kUint16 ||
      leaf.converted_type == ConvertedType::kUint32 ||
      leaf.converted_type == ConvertedType::kUint64;
  const bool is_bytes = descriptor.physical_type == PhysicalType::kByteArray;
  const bool is_decimal_bytes =
      is_bytes && (leaf.converted_type == ConvertedType::kDecimal ||
                   (leaf.logical_type && leaf.logical_type->kind == LogicalType::Kind::kDecimal));
  if (is_unsigned || is_decimal_bytes) return true;
  switch (descriptor.physical_type) {
    case PhysicalType::kInt32:
    case PhysicalType::kInt64: {
      const auto* v = std::get_if<int64_t>(&predicate.value);
      if (!v) return true;
      std::optional<int64_t> lo, hi;
      if (descriptor.physical_type == PhysicalType::kInt32) {
        lo = DecodeStat<int32_t>(min);
        hi = DecodeStat<int32_t>(max);
      } else {
        lo = DecodeStat<int64_t>(min);
        hi = DecodeStat<int64_t>(max);
      }
      return !lo || !hi || RangeMayMatch<int64_t>(predicate.op, *lo, *hi, *v);
    }
    case PhysicalType::kFloat:
    case PhysicalType::kDouble: {
      const auto* v = std::get_if<double>(&predicate.value);
      if (!v || std::isnan(*v)) return true;
      std::optional<double> lo, hi;
      if (descriptor.physical_type == PhysicalType::kFloat) {
        lo = DecodeStat<float>(min);
        hi = DecodeStat<float>(max);
      } else {
        lo = DecodeStat<double>(min);
        hi = DecodeStat<double>(max);
      }
      if (!lo || !hi || std::isnan(*lo) || std::isnan(*hi)) return true;
      return RangeMayMatch<double>(predicate.op, *lo, *hi, *v);
    }
    case PhysicalType::kByteArray: {
      const auto* v = std::get_if<std::string>(&predicate.value);
      return !v || RangeMayMatch<std::string>(predicate.op, min, max, *v);
    }
    default:
      return true;
  }
}

Result<bool> ParquetBatchReader::RowGroupMayMatch(size_t row_group) const {
  const RowGroup& group = file_->metadata().row_groups[row_group];
  for (const ColumnPredicate& predicate : options_.predicates) {
    const int column = PredicateColumn(predicate);
    if (column < 0) continue;
    const ColumnChunk& chunk = group.columns[column];
    FLOE_ASSIGN_OR_RETURN(
        bool bloom_may_match,
        BloomFilterMayMatch(*file_, chunk, file_->schema().columns()[column], predicate));
    if (!bloom_may_match) return false;
    if (!chunk.meta_data || !chunk.meta_data->statistics) continue;
    const Statistics& stats = *chunk.meta_data->statistics;
    using Op = ColumnPredicate::Op;
    if (predicate.op == Op::kIsNull) {
      if (stats.null_count == 0) return false;
      continue;
    }
    if (predicate.op == Op::kNotNull) {
      if (stats.null_count && *stats.null_count == group.num_rows) return false;
      continue;
    }
    // The legacy min/max used signed byte order for byte arrays: trust them for numbers only.
    const bool is_bytes =
        file_->schema().columns()[column].physical_type == PhysicalType::kByteArray;
    const std::optional<std::string>& min =
        stats.min_value ? stats.min_value : (is_bytes ? std::nullopt : stats.min);
    const std::optional<std::string>& max =
        stats.max_value ? stats.max_value : (is_bytes ? std::nullopt : stats.max);
    if (!min || !max) continue;
    if (!MinMaxMayMatch(column, predicate, *min, *max)) return false;
  }
  return true;
}

namespace {

// The rows in both sets of sorted, disjoint ranges.
std::vector<RowRange> Intersect(const std::vector<RowRange>& a, const std::vector<RowRange>& b) {
  std::vector<RowRange> out;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const int64_t begin = std::max(a[i].begin, b[j].begin);
    const int64_t end = std::min(a[i].end, b[j].end);
    if (begin < end) out.push_back({begin, end});
    if (a[i].end < b[j].end) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

}  // namespace

Result<std::vector<RowRange>> ParquetBatchReader::SelectRows(size_t row_group) const {
  const RowGroup& group = file_->metadata().row_groups[row_group];
  std::vector<RowRange> rows;
  if (group.num_rows > 0) rows.push_back({0, group.num_rows});
  if (options_.predicates.empty()) return rows;
  // Repeated columns are read whole: their pages need not start at the rows other columns'
  // pages start at.
  for (int column : needed_columns_) {
    if (file_->schema().columns()[column].max_repetition_level > 0) return rows;
  }
  using Op = ColumnPredicate::Op;
  for (const ColumnPredicate& predicate : options_.predicates) {
    const int column = PredicateColumn(predicate);
    if (column < 0) continue;
    FLOE_ASSIGN_OR_RETURN(std::optional<ColumnIndex> index,
                          file_->ReadColumnIndex(row_group, static_cast<size_t>(column)));
    if (!index) continue;
    FLOE_ASSIGN_OR_RETURN(std::optional<OffsetIndex> offsets,
                          file_->ReadOffsetIndex(row_group, static_cast<size_t>(column)));
    if (!offsets) continue;
    const std::vector<PageLocation>& pages = offsets->page_locations;
    const size_t n = pages.size();
    if (index->null_pages.size() != n || index->min_values.size() != n ||
        index->max_values.size() != n ||
        (!index->null_counts.empty() && index->null_counts.size() != n)) {
      return CorruptData(
          "{}: row group {}: column {}: the column index describes {} pages, the "
          "offset index {}",
          file_->source().name(), row_group, file_->schema().columns()[column].dotted_path(),
          index->null_pages.size(), n);
    }
    std::vector<RowRange> matching;
    for (size_t i = 0; i < n; ++i) {
      const int64_t begin = pages[i].first_row_index;
      const int64_t end = i + 1 < n ? pages[i + 1].first_row_index : group.num_rows;
      if (begin < 0 || end < begin || end > group.num_rows) {
        return CorruptData("{}: row group {}: column {}: offset index page {} covers rows {}..{}",
                           file_->source().name(), row_group,
                           file_->schema().columns()[column].dotted_path(), i, begin, end);
      }
      bool may_match = true;
      if (predicate.op == Op::kIsNull) {
        may_match = index->null_pages[i] || index->null_counts.empty() || index->null_counts[i] > 0;
      } else if (predicate.op == Op::kNotNull) {
        may_match = !index->null_pages[i];
      } else {
        // A comparison never holds for a null.
        may_match = !index->null_pages[i] &&
                    MinMaxMayMatch(column, predicate, index->min_values[i], index->max_values[i]);
      }
      if (!may_match || begin == end) continue;
      if (!matching.empty() && matching.back().end == begin) {
        matching.back().end = end;
      } else {
        matching.push_back({begin, end});
      }
    }
    rows = Intersect(rows, matching);
  }
  return rows;
}

void ParquetBatchReader::AnnounceRowGroup(size_t row_group) {
  announced_through_ = row_group + 1;
  const RowGroup& group = file_->metadata().row_groups[row_group];
  std::vector<ByteRange> chunks;
  for (int column : needed_columns_) {
    if (static_cast<size_t>(column) >= group.columns.size()) continue;
    const auto& meta = group.columns[column].meta_data;
    if (!meta || meta->total_compressed_size <= 0) continue;
    int64_t start = meta->data_page_offset;
    if (meta->dictionary_page_offset && *meta->dictionary_page_offset > 0) {
      start = std::min(start, *meta->dictionary_page_offset);
    }
    if (start < 0) continue;
    chunks.push_back(
        {static_cast<uint64_t>(start), static_cast<uint64_t>(meta->total_compressed_size)});
  }
  file_->source().WillRead(chunks);
}

Status ParquetBatchReader::LoadRowGroup(size_t row_group, std::vector<RowRange> rows) {
  const RowGroup& group = file_->metadata().row_groups[row_group];
  int64_t selected_rows = 0;
  for (const RowRange& range : rows) selected_rows += range.end - range.begin;
  const bool whole = selected_rows == group.num_rows;
  // Conversions by column, from the mapped nodes.
  std::vector<LeafConversion> conversions(columns_.size(), LeafConversion::kNull);
  auto collect = [&](auto&& self, const ReadNode& node) -> void {
    if (node.kind == ReadNode::Kind::kLeaf) conversions[node.column] = node.conversion;
    for (const ReadNode& child : node.children) self(self, child);
  };
  for (const auto& node : nodes_) {
    if (node) collect(collect, *node);
  }
  const std::string where =
      fmt::format("{}: row group {}",
                  std::filesystem::path(file_->source().name()).filename().string(), row_group);
  for (int column : needed_columns_) {
    const ColumnDescriptor& descriptor = file_->schema().columns()[column];
    if (is_flat_[column]) {
      std::optional<OffsetIndex> offset_index;
      std::optional<ChunkRowSelection> selection;
      if (!whole) {
        FLOE_ASSIGN_OR_RETURN(offset_index,
                              file_->ReadOffsetIndex(row_group, static_cast<size_t>(column)));
        selection.emplace();
        selection->rows = rows;
        if (offset_index) selection->offset_index = &*offset_index;
      }
      FLOE_ASSIGN_OR_RETURN(flat_[column],
                            MakeFlatColumnReader(*file_, row_group, column, conversions[column],
                                                 selection ? &*selection : nullptr, where));
      continue;
    }
    // The previous row group's column keeps its memory for this one.
    std::unique_ptr<ColumnData>& data = columns_[column];
    if (!data) data = std::make_unique<ColumnData>();
    data->def.clear();
    data->rep.clear();
    data->entries = data->pos = data->value_pos = 0;
    data->selection.reset();
    data->offset_index.reset();
    data->name = descriptor.dotted_path();
    const auto& meta = file_->metadata().row_groups.at(row_group).columns.at(column).meta_data;
    data->data_offset = meta ? meta->data_page_offset : 0;
    data->max_def = descriptor.max_definition_level;
    data->max_rep = descriptor.max_repetition_level;
    if (!whole) {
      FLOE_ASSIGN_OR_RETURN(data->offset_index,
                            file_->ReadOffsetIndex(row_group, static_cast<size_t>(column)));
      data->selection.emplace();
      data->selection->rows = rows;
      if (data->offset_index) data->selection->offset_index = &*data->offset_index;
    }
    FLOE_RETURN_IF_ERROR(
        VisitConversion(conversions[column], ColumnLoader{*file_, row_group, column, *data}));
    if (data->max_rep == 0 && data->entries != static_cast<size_t>(selected_rows)) {
      return CorruptData("{}: row group {}: column {} has {} values for {} rows",
                         file_->source().name(), row_group, data->name, data->entries,
                         selected_rows);
    }
  }
  rows_left_in_group_ = selected_rows;
  rows_skipped_by_page_index_ += group.num_rows - selected_rows;
  current_row_group_ = row_group;
  ranges_ = std::move(rows);
  range_index_ = 0;
  range_pos_ = 0;
  return Ok();
}

Result<std::optional<RecordBatch>> ParquetBatchReader::Next() {
  const auto& groups = file_->metadata().row_groups;
  while (rows_left_in_group_ == 0) {
    if (next_row_group_ >= groups.size()) return std::nullopt;
    const size_t group = next_row_group_++;
    if (!InByteRange(group)) continue;
    if (groups[group].num_rows < 0) {
      return CorruptData("{}: row group {} has {} rows", file_->source().name(), group,
                         groups[group].num_rows);
    }
    FLOE_ASSIGN_OR_RETURN(bool may_match, RowGroupMayMatch(group));
    std::vector<RowRange> rows;
    if (may_match) {
      FLOE_ASSIGN_OR_RETURN(rows, SelectRows(group));
    }
    if (!may_match || (rows.empty() && groups[group].num_rows > 0)) {
      ++row_groups_skipped_;
      continue;
    }
    // The row group being loaded, and the next one while this one decodes: without predicates
    // it is read too, unless it lies outside the byte range.
    if (announced_through_ <= group) AnnounceRowGroup(group);
    if (options_.predicates.empty() && group + 1 < groups.size() && InByteRange(group + 1)) {
      AnnounceRowGroup(group + 1);
    }
    FLOE_RETURN_IF_ERROR(LoadRowGroup(group, std::move(rows)));
  }
  // A batch never spans two ranges of selected rows: its rows are consecutive in the file.
  const RowRange& range = ranges_[range_index_];
  const int64_t rows = std::min(range.end - range.begin - range_pos_, options_.batch_rows);
  batch_row_position_ = group_first_row_[current_row_group_] + range.begin + range_pos_;
  range_pos_ += rows;
  if (range_pos_ == range.end - range.begin) {
    ++range_index_;
    range_pos_ = 0;
  }
  const std::string where = fmt::format(
      "{}: row group {}", std::filesystem::path(file_->source().name()).filename().string(),
      current_row_group_);
  Assembler assembler(columns_, where);
  std::vector<Array> arrays;
  for (int i = 0; i < schema_->num_fields(); ++i) {
    const Field& field = schema_->field(i);
    std::unique_ptr<ArrayBuilder> builder = MakeBuilder(field.type);
    const ReadNode* node = nodes_[i].get();
    if (node == nullptr) {
      builder->AppendNulls(rows);
    } else if (node->kind == ReadNode::Kind::kLeaf && is_flat_[node->column]) {
      FLOE_RETURN_IF_ERROR(flat_[node->column]->Read(*builder, rows));
    } else {
      builder->Reserve(rows);
      const ColumnData* first = node->columns.empty() ? nullptr : columns_[node->columns[0]].get();
      for (int64_t row = 0; row < rows; ++row) {
        if (first != nullptr && first->pos < first->entries && first->RepAt() != 0) {
          return CorruptData(
              "{}: column {} (data pages from offset {}) continues a row at the start of row {}",
              where, first->name, first->data_offset, row);
        }
        FLOE_RETURN_IF_ERROR(assembler.Read(*node, *builder));
      }
    }
    auto array = builder->Finish();
    if (!array) return std::unexpected(std::move(array.error().AddContext(where)));
    arrays.push_back(std::move(*array));
  }
  rows_left_in_group_ -= rows;
  if (rows_left_in_group_ == 0) {
    for (std::unique_ptr<FlatColumnReader>& flat : flat_) {
      if (!flat) continue;
      FLOE_RETURN_IF_ERROR(flat->CheckExhausted());
      flat.reset();
    }
  }
  auto batch = RecordBatch::Make(schema_, std::move(arrays), rows);
  if (!batch) return std::unexpected(std::move(batch.error().AddContext(where)));
  return std::optional<RecordBatch>(std::move(*batch));
}

Result<std::vector<RecordBatch>> ParquetBatchReader::ReadAll() {
  std::vector<RecordBatch> batches;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, Next());
    if (!batch) return batches;
    batches.push_back(std::move(*batch));
  }
}

}  // namespace floe::parquet
