#pragma once

// Internal to the Parquet writer: one leaf column's chunk in the current row group. It takes
// (definition level, repetition level, value) entries shredded from the batch arrays, cuts pages,
// dictionary-encodes until the dictionary outgrows dict_size_bytes (then falls back to PLAIN),
// compresses, and keeps chunk and file statistics.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "floe/batch/array.h"
#include "floe/format/parquet/metadata.h"
#include "floe/format/parquet/writer/writer_options.h"
#include "floe/util/error.h"

namespace floe::io {
class FileWriter;
}

namespace floe::parquet {

struct ColumnMetrics;

// One entry for a leaf: idx >= 0 is the value's index in the leaf array (present and non-null),
// idx < 0 a null or empty ancestor whose levels are def and rep.
struct LevelSlot {
  int64_t idx;
  int16_t def;
  int16_t rep;
};

struct LeafSpec {
  std::vector<std::string> path;
  std::optional<int32_t> field_id;
  PhysicalType physical_type = PhysicalType::kBoolean;
  int32_t type_length = 0;
  int16_t max_def = 0;
  int16_t max_rep = 0;
  bool unsigned_order = false;  // INTEGER(n, false): statistics compare unsigned
  bool float16 = false;         // FLOAT16 in FIXED_LEN_BYTE_ARRAY(2)
  bool decimal_bytes = false;   // DECIMAL in FIXED_LEN_BYTE_ARRAY: signed big-endian order
  TypeKind kind = TypeKind::kBool;
  MetricsMode metrics;
};

// What a chunk adds outside its pages: the page index (no column index when a page has no bounds to
// give, e.g. NaNs only) and, for the columns that asked for one, a bloom filter (header and
// bitset).
struct ChunkIndexes {
  std::optional<ColumnIndex> column_index;
  OffsetIndex offset_index;
  std::vector<std::byte> bloom_filter;
};

class ColumnWriter {
 public:
  virtual ~ColumnWriter() = default;
  // options and buffers must outlive the writer.
  static std::unique_ptr<ColumnWriter> Make(LeafSpec spec, const WriterOptions& options,
                                            PageBuffers& buffers);

  virtual void Add(const Array& leaf, std::span<const LevelSlot> slots) = 0;
  // Every row of a top-level, non-repeated leaf: the same as Add with one slot per row, faster.
  virtual void AddFlat(const Array& leaf) = 0;
  // Rows `rows` of a top-level, non-repeated leaf, in that order (each in [0, leaf.length())):
  // AddFlat of the gathered rows, without gathering them first.
  virtual void AddRows(const Array& leaf, std::span<const int64_t> rows) = 0;
  // Bytes this chunk holds in memory (compressed pages plus the open page and dictionary).
  virtual int64_t BufferedBytes() const = 0;
  // Closes the chunk: writes its pages (dictionary page first) at the file's position and returns
  // its metadata, its page index and bloom filter. Resets for the next row group.
  virtual Result<ColumnChunk> FinishChunk(io::FileWriter& file, ChunkIndexes& indexes) = 0;
  // Statistics over all chunks so far.
  virtual void FillMetrics(ColumnMetrics& metrics) const = 0;

  const LeafSpec& spec() const { return spec_; }

 protected:
  explicit ColumnWriter(LeafSpec spec) : spec_(std::move(spec)) {}
  LeafSpec spec_;
};

}  // namespace floe::parquet
