#pragma once

// Reads a Parquet file as floe RecordBatches. The file's schema is mapped to batch types (see
// schema_mapping.h); records are assembled from definition and repetition levels into the batch
// builders, flat columns through a typed fast path and nested ones (structs, lists, maps, legacy
// list forms) recursively. Columns can be selected by field id or name (top-level fields; a
// selected field the file lacks becomes an all-null column of the requested type). Row groups whose
// statistics or bloom filters rule out a simple comparison are skipped, and so are the pages whose
// column index min/max rule it out: when every selected column is unrepeated, only the rows of the
// pages that may match are read (the offset index's first_row_index aligns the columns), so a
// batch holds a superset of the matching rows and the caller still filters them.
//
// Unrepeated top-level columns are decoded page by page straight into each batch (flat_column_internal.h),
// so their memory is a page and a batch; the columns of nested fields are decoded a row group at a
// time for the assembler, so theirs is bounded by a row group's decoded size. Errors (kCorruptData,
// kUnsupported, kIO) name the file, and where known the column and row group; encrypted files fail
// at Open with kUnsupported.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "floe/batch/data_type.h"
#include "floe/batch/record_batch.h"
#include "floe/format/parquet/column_reader.h"
#include "floe/util/error.h"

namespace floe::io {
class InputFile;
}

namespace floe::parquet {

class FileReader;
class FlatColumnReader;
class RandomAccessSource;
struct ReadNode;

// A comparison of one top-level primitive column against a literal in the column's physical
// representation (int64 for INT32/INT64, double for FLOAT/DOUBLE, bytes for BYTE_ARRAY), used only
// to skip row groups and pages whose min/max statistics prove that no row matches. Columns of other
// types, unsigned integers, or without statistics never cause a skip.
struct ColumnPredicate {
  enum class Op : uint8_t { kEq, kLt, kLe, kGt, kGe, kIsNull, kNotNull };
  std::string column;               // a top-level column name...
  std::optional<int32_t> field_id;  // ...or its field id, which wins when set
  Op op = Op::kEq;
  std::variant<int64_t, double, std::string> value;
};

struct ReadOptions {
  int64_t batch_rows = 64 * 1024;
  // When non-empty, the fields to return in this order: each matched by field_id when set, else
  // by name; the type is used for all-null columns when the file lacks the field (null type when
  // unset).
  std::vector<Field> select;
  // All must possibly hold for a row group to be read.
  std::vector<ColumnPredicate> predicates;
  // When set, only the row groups whose first byte (the first column chunk's dictionary page, else
  // its first data page) lies in [first, first + second): the rule Iceberg's split planning uses,
  // so that the splits of one file never read a row group twice.
  std::optional<std::pair<int64_t, int64_t>> byte_range;
  // Microseconds by default: nanoseconds cannot hold the years 1677 and 2262 and beyond that
  // INT96 files do contain.
  floe::TimeUnit int96_unit = floe::TimeUnit::kMicro;
};

class ParquetBatchReader {
 public:
  static Result<std::unique_ptr<ParquetBatchReader>> Open(std::unique_ptr<FileReader> file,
                                                          ReadOptions options = {});
  static Result<std::unique_ptr<ParquetBatchReader>> Open(std::shared_ptr<io::InputFile> file,
                                                          ReadOptions options = {});
  static Result<std::unique_ptr<ParquetBatchReader>> OpenPath(const std::string& path,
                                                              ReadOptions options = {});
  ~ParquetBatchReader();

  const BatchSchemaPtr& schema() const { return schema_; }
  const FileReader& file() const { return *file_; }
  // Row groups skipped by the predicates so far.
  int64_t row_groups_skipped() const { return row_groups_skipped_; }
  // Rows of the row groups read so far that the page index let the reader skip.
  int64_t rows_skipped_by_page_index() const { return rows_skipped_by_page_index_; }

  // The next batch (at most batch_rows rows), or nullopt at the end.
  Result<std::optional<RecordBatch>> Next();
  // The position in the file (counting every row group) of the first row of the batch the last
  // Next() returned: what position deletes refer to. A batch's rows are consecutive in the file.
  int64_t batch_row_position() const { return batch_row_position_; }

  // Reads every remaining batch.
  Result<std::vector<RecordBatch>> ReadAll();

  struct ColumnData;
  ParquetBatchReader(std::unique_ptr<FileReader> file, ReadOptions options);

 private:
  Status Init();
  bool InByteRange(size_t row_group) const;
  int PredicateColumn(const ColumnPredicate& predicate) const;
  bool MinMaxMayMatch(int column, const ColumnPredicate& predicate, const std::string& min,
                      const std::string& max) const;
  Result<bool> RowGroupMayMatch(size_t row_group) const;
  // The rows of the row group that the page index does not rule out.
  Result<std::vector<RowRange>> SelectRows(size_t row_group) const;
  Status LoadRowGroup(size_t row_group, std::vector<RowRange> rows);
  // Tells the source which column chunks of the row group will be read (a remote file then
  // fetches them ahead: RandomAccessSource::WillRead).
  void AnnounceRowGroup(size_t row_group);

  std::unique_ptr<FileReader> file_;
  ReadOptions options_;
  BatchSchemaPtr schema_;
  // One per output field; nullptr for missing (all-null) fields.
  std::vector<std::unique_ptr<ReadNode>> nodes_;
  std::vector<std::unique_ptr<ColumnData>> columns_;  // by column index; loaded ones only
  // By column index: whether the column is a top-level unrepeated leaf, read through flat_, and
  // the current row group's readers of those columns.
  std::vector<bool> is_flat_;
  std::vector<std::unique_ptr<FlatColumnReader>> flat_;
  std::vector<int> needed_columns_;
  size_t next_row_group_ = 0;
  // The last row group announced to the source, plus one (0: none yet).
  size_t announced_through_ = 0;
  int64_t rows_left_in_group_ = 0;
  size_t current_row_group_ = 0;
  int64_t row_groups_skipped_ = 0;
  int64_t rows_skipped_by_page_index_ = 0;
  // The selected rows of the current row group, and where the next batch starts in them.
  std::vector<RowRange> ranges_;
  size_t range_index_ = 0;
  int64_t range_pos_ = 0;
  std::vector<int64_t> group_first_row_;
  int64_t batch_row_position_ = 0;
};

}  // namespace floe::parquet
