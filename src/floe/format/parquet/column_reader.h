#pragma once

// Reads one column chunk as definition levels, repetition levels and the non-null values, a batch
// at a time (the low-level reader under the batch-building readers). Handles data page v1 and v2,
// dictionaries, every encoding of encoding/ and RLE or BIT_PACKED levels. Values are produced only
// for level entries whose definition level is the column's maximum. Errors name the column (the
// context given to Make) and the page offset; pages holding more or fewer level entries than the
// chunk's metadata says are kCorruptData.
//
// A column without repetition can be read for a row selection: only the rows in the given ranges
// are returned, in order. With the chunk's offset index, pages holding no selected row are neither
// read nor decompressed, and each page's rows are counted from its first_row_index, which keeps
// columns whose pages break at different rows aligned; without one, every page is read and the
// rows outside the ranges are decoded and dropped.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "floe/format/parquet/encoding/value_decoder.h"
#include "floe/format/parquet/metadata.h"
#include "floe/format/parquet/page_reader.h"
#include "floe/format/parquet/schema.h"
#include "floe/util/error.h"

namespace floe::parquet {

class RandomAccessSource;
class RleBitPackedDecoder;

// Rows [begin, end) of a row group.
struct RowRange {
  int64_t begin = 0;
  int64_t end = 0;
  bool operator==(const RowRange&) const = default;
};

// The rows of one chunk to read (sorted, disjoint, non-empty ranges) and the chunk's offset index
// (null when it has none).
struct ChunkRowSelection {
  std::vector<RowRange> rows;
  const OffsetIndex* offset_index = nullptr;
};

struct BatchCounts {
  size_t levels = 0;  // level entries read (0 at the end of the chunk)
  size_t values = 0;  // values read (entries with the maximum definition level)
};

// T by physical type: bool (BOOLEAN), int32_t, int64_t, Int96, float, double, ByteArray
// (BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY). Byte-array values are views valid until the next
// ReadBatch call.
template <typename T>
class ColumnChunkReader {
 public:
  static Result<std::unique_ptr<ColumnChunkReader>> Make(const RandomAccessSource& source,
                                                         const ColumnChunk& chunk,
                                                         const ColumnDescriptor& column,
                                                         std::string context,
                                                         std::string_view created_by = {});
  // Reads only the selected rows. Fails with kInvalidArgument for a repeated column.
  static Result<std::unique_ptr<ColumnChunkReader>> MakeSelected(
      const RandomAccessSource& source, const ColumnChunk& chunk, const ColumnDescriptor& column,
      std::string context, std::string_view created_by, ChunkRowSelection selection);
  ~ColumnChunkReader();

  // Reads up to max_levels entries. def_levels and rep_levels receive max_levels entries each and
  // may be null when the column's maximum level of that kind is 0; values receives at most
  // max_levels values.
  Result<BatchCounts> ReadBatch(size_t max_levels, int16_t* def_levels, int16_t* rep_levels,
                                T* values);

  ColumnChunkReader(std::unique_ptr<PageReader> pages, const ColumnDescriptor& column,
                    int64_t num_values);

 private:
  struct LevelDecoder;
  Result<bool> NextDataPage();
  // Reads n (at most the page's remaining) entries of the current page.
  Result<BatchCounts> ReadPage(size_t n, int16_t* def_levels, int16_t* rep_levels, T* values);
  Status SkipInPage(size_t n);
  Status ReadDictionary(PageBuffer data, const DictionaryPageHeader& header);
  Result<std::unique_ptr<ValueDecoder<T>>> MakeValueDecoder(Encoding encoding,
                                                            std::span<const std::byte> data);
  Status DecodeLevels(LevelDecoder& decoder, int16_t max_level, std::span<int16_t> out);

  std::unique_ptr<PageReader> pages_;
  ColumnDescriptor column_;
  // The dictionary page's bytes (byte-array entries point into them) and values.
  PageBuffer dictionary_data_;
  std::unique_ptr<T[]> dictionary_;  // not a vector: vector<bool> has no span
  size_t dictionary_size_ = 0;
  bool has_dictionary_ = false;
  // The current data page.
  PageBuffer page_data_;
  int64_t page_offset_ = 0;
  size_t page_levels_left_ = 0;
  std::unique_ptr<LevelDecoder> def_decoder_;
  std::unique_ptr<LevelDecoder> rep_decoder_;
  std::unique_ptr<ValueDecoder<T>> values_;
  std::vector<int16_t> scratch_levels_;
  int64_t num_values_;  // level entries in the chunk, from its metadata
  int64_t levels_read_ = 0;
  // The row selection, when there is one; levels_read_ is then the row of the next entry.
  bool selected_ = false;
  std::vector<RowRange> rows_;
  size_t range_ = 0;
  std::vector<PageLocation> page_locations_;  // empty without an offset index
  std::unique_ptr<T[]> skipped_values_;
};

// The bit width of levels up to max_level.
int LevelBitWidth(int16_t max_level);

}  // namespace floe::parquet
