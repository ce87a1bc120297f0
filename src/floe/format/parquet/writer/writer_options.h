#pragma once

// Options of the Parquet writer, and their parsing from Iceberg table properties
// (write.parquet.*, write.metadata.metrics.default). Parsing fails with kInvalidArgument naming
// the property and the bad value; unknown properties are ignored (tables carry many others).

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/format/parquet/metadata.h"
#include "floe/util/error.h"

namespace floe::parquet {

// The subtask-wide limit on the pages that writers sharing PageBuffers hold together: twice the
// default row group, so that a single file, or two, keep their row-group size.
inline constexpr int64_t kDefaultHeldPagesBudget = int64_t{256} << 20;

// Buffers a page is encoded and compressed in. One page is written at a time, so the columns of a
// file share one set, and so may the files of writers used by one thread at a time (a writer of
// many tables or partitions then holds one page's scratch, not one per open file).
//
// Writers sharing them also share a budget for the pages they hold: a writer keeps its row group's
// pages in memory until the row group closes (at row_group_size_bytes, or at the end of the file),
// so a thread writing many files at once would hold a row group for each. When the open writers
// hold more than held_budget together, one holding at least its share (held_bytes over
// open_writers) closes its row group early. A writer alone always keeps its row-group size.
struct PageBuffers {
  std::vector<std::byte> body, levels, compressed;
  int64_t held_budget = kDefaultHeldPagesBudget;
  int64_t held_bytes = 0;    // pages, open pages and dictionaries of the open writers
  int64_t open_writers = 0;  // writers made and not yet closed or destroyed
};

// How much of a column's statistics the caller gets back (Iceberg's metrics modes).
struct MetricsMode {
  enum class Kind : uint8_t { kNone, kCounts, kTruncate, kFull };
  Kind kind = Kind::kTruncate;
  int32_t truncate_length = 16;  // kTruncate: code points of strings, bytes of binaries
  bool operator==(const MetricsMode&) const = default;
};

// "none", "counts", "truncate(N)" (N >= 1), "full".
Result<MetricsMode> ParseMetricsMode(std::string_view text);

// The zstd level when write.parquet.compression-level is unset (Iceberg leaves it unset, so the
// level is the writer's choice). Level 1 gave smaller files than zstd's default level 3 on the
// benchmark inputs (hex digests, TPC-H comments, delta-packed integers) in about two thirds of the
// CPU time; docs/parquet-writing.md has the figures.
inline constexpr int32_t kDefaultZstdLevel = 1;

struct WriterOptions {
  int64_t row_group_size_bytes = 128LL << 20;  // write.parquet.row-group-size-bytes
  int64_t page_size_bytes = 1LL << 20;         // write.parquet.page-size-bytes
  int64_t page_row_limit = 20000;              // write.parquet.page-row-limit
  int64_t dict_size_bytes = 2LL << 20;         // write.parquet.dict-size-bytes
  Codec codec = Codec::kZstd;                  // write.parquet.compression-codec
  std::optional<int32_t> compression_level;    // write.parquet.compression-level
  bool dictionary_enabled = true;
  bool data_page_v2 = false;
  // DELTA_BINARY_PACKED for INT32/INT64 pages that fall back from the dictionary, where it is at
  // most half the size of PLAIN, and DELTA_LENGTH_BYTE_ARRAY or DELTA_BYTE_ARRAY for BYTE_ARRAY
  // pages that do, where they compress smaller.
  bool delta_encoding = true;
  // Column and offset indexes for every chunk.
  bool page_index = true;
  // Columns with a bloom filter, by dotted path (write.parquet.bloom-filter-enabled.column.<name>),
  // with their false-positive probability (write.parquet.bloom-filter-fpp.column.<name>).
  std::map<std::string, double> bloom_filter_columns;
  int64_t bloom_filter_max_bytes = 1 << 20;  // write.parquet.bloom-filter-max-bytes
  // Columns (by field id) of fixed_size_binary(16) to annotate with the UUID logical type.
  std::vector<int32_t> uuid_field_ids;
  MetricsMode default_metrics;                   // write.metadata.metrics.default
  std::map<int32_t, MetricsMode> field_metrics;  // per field id, set by the caller
  std::string created_by = "floe";
  // The footer's key-value metadata (e.g. iceberg.schema, as Iceberg's writers record the schema).
  std::vector<KeyValue> key_value_metadata;
  // Shared with other writers of the same thread; null: the writer has its own.
  std::shared_ptr<PageBuffers> page_buffers;
};

// The level the codec runs at: the option if set, else kDefaultZstdLevel for zstd and the codec's
// own default for the others (compression::kDefaultLevel).
int32_t CompressionLevel(const WriterOptions& options);

// Reads the write.parquet.* and write.metadata.metrics.default properties over the defaults.
Result<WriterOptions> ParseWriterOptions(const std::map<std::string, std::string>& properties);

}  // namespace floe::parquet
