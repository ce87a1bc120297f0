#pragma once

// Reads one data or delete file as batches of a given Iceberg schema: the file format's reader
// (Parquet, ORC, Avro) picks the top-level columns by field id (Parquet's field ids, ORC's
// `iceberg.id` attributes or, for files written without ids, the name mapping), and
// schema_projection.h turns what the file holds into the schema's types. Each batch comes with the
// file position of its first row, which position deletes refer to.
//
// Errors name the file: kUnsupported for formats floe cannot read, the format reader's errors, and
// projection errors.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/expr/expression.h"
#include "floe/io/file_io.h"
#include "floe/spec/literal.h"
#include "floe/spec/schema.h"
#include "floe/table/scan/name_mapping.h"
#include "floe/util/error.h"

namespace floe::parquet {
class ParquetBatchReader;
}
namespace floe::manifest {
class AvroDataReader;
}
namespace floe::orc {
class OrcBatchReader;
}

namespace floe::table {

struct DataFileReadOptions {
  int64_t batch_rows = 8192;
  // Parquet row groups (ORC stripes) starting in [first, first + second) only (a split of the
  // file).
  std::optional<std::pair<int64_t, int64_t>> byte_range;
  // Ids for files written without them; when null such files map by the schema's own names.
  const NameMapping* name_mapping = nullptr;
  // Values of fields the file does not hold (identity partition values), by field id.
  std::unordered_map<int32_t, Literal> constants;
  // A filter bound to the table schema whose mappable conjuncts let the Parquet reader skip row
  // groups and pages (parquet_predicates.h). Rows are not filtered: a superset comes back.
  expr::ExprPtr filter;
  // Fields the data file's metrics count no NaN in (lets > and >= on floats skip).
  std::vector<int32_t> nan_free_field_ids;
  // The file's size as its manifest records it: an object store then opens it without asking.
  std::optional<int64_t> file_size;
};

class DataFileReader {
 public:
  static Result<std::unique_ptr<DataFileReader>> Open(io::FileIO& io, const std::string& location,
                                                      std::string_view format,
                                                      SchemaPtr read_schema,
                                                      DataFileReadOptions options = {});
  ~DataFileReader();

  struct Batch {
    RecordBatch batch;       // one column per top-level field of the read schema
    int64_t first_position;  // the file position of its first row
  };
  Result<std::optional<Batch>> Next();

  const BatchSchemaPtr& schema() const { return schema_; }
  // What the filter let the Parquet reader skip so far: whole row groups, and rows of the row
  // groups it read (page index).
  int64_t row_groups_skipped() const;
  int64_t rows_skipped_by_page_index() const;

  DataFileReader(std::string location, SchemaPtr read_schema, DataFileReadOptions options);

 private:
  Result<std::unique_ptr<io::InputFile>> OpenInput(io::FileIO& io) const;
  static bool HasIds(const std::vector<Field>& fields);
  // The file's top-level fields with ids: their own, or the name mapping's when the file has none.
  std::vector<Field> MappedFields(std::vector<Field> fields, bool has_ids) const;
  // The format reader's selection of file_fields for the read schema; fills sources_ and
  // source_columns_.
  std::vector<Field> SelectFields(const std::vector<Field>& file_fields, bool has_ids);
  Status OpenParquet(io::FileIO& io);
  Status OpenOrc(io::FileIO& io);
  Status OpenAvro(io::FileIO& io);
  Result<std::optional<Batch>> NextAvro();

  std::string location_;
  SchemaPtr read_schema_;
  DataFileReadOptions options_;
  BatchSchemaPtr schema_;
  std::unique_ptr<parquet::ParquetBatchReader> parquet_;
  std::unique_ptr<orc::OrcBatchReader> orc_;
  std::unique_ptr<io::InputFile> avro_file_;
  std::unique_ptr<manifest::AvroDataReader> avro_;
  int64_t avro_position_ = 0;
  bool avro_done_ = false;
  // Per read-schema field: the file's field (ids filled in), or nullopt when the file lacks it.
  std::vector<std::optional<Field>> sources_;
  // Per read-schema field: its column in the format reader's batches, or -1.
  std::vector<int> source_columns_;
};

}  // namespace floe::table
