#pragma once

// Reads an ORC file as RecordBatches of chosen columns: a stripe at a time (so memory is bounded
// by one stripe's selected columns), handed out in batches of at most batch_rows rows. Columns are
// chosen like the Parquet reader's (parquet/reader/batch_reader.h): top-level fields by field id
// (the ORC `iceberg.id` attribute) when set, else by name; a chosen field the file lacks becomes an
// all-null column of the requested type.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/format/orc/file_reader.h"
#include "floe/util/error.h"

namespace floe::io {
class InputFile;
}

namespace floe::orc {

struct ReadOptions {
  int64_t batch_rows = 64 * 1024;
  // When non-empty, the fields to return in this order (see above).
  std::vector<Field> select;
  // When set, only the stripes whose offset lies in [first, first + second): Iceberg's split rule.
  std::optional<std::pair<int64_t, int64_t>> byte_range;
  FileOptions file;
};

class OrcBatchReader {
 public:
  static Result<std::unique_ptr<OrcBatchReader>> Open(std::unique_ptr<OrcFileReader> file,
                                                      ReadOptions options = {});
  static Result<std::unique_ptr<OrcBatchReader>> Open(std::shared_ptr<io::InputFile> file,
                                                      ReadOptions options = {});
  static Result<std::unique_ptr<OrcBatchReader>> OpenPath(const std::string& path,
                                                          ReadOptions options = {});

  const BatchSchemaPtr& schema() const { return schema_; }
  const OrcFileReader& file() const { return *file_; }

  // The next batch, or nullopt at the end.
  Result<std::optional<RecordBatch>> Next();
  // The file position (counting every stripe's rows) of the first row of the last batch.
  int64_t batch_row_position() const { return batch_row_position_; }
  Result<std::vector<RecordBatch>> ReadAll();

  OrcBatchReader(std::unique_ptr<OrcFileReader> file, ReadOptions options);

 private:
  Status Init();
  Result<RecordBatch> Assemble(const RecordBatch& stripe_rows) const;

  std::unique_ptr<OrcFileReader> file_;
  ReadOptions options_;
  BatchSchemaPtr schema_;
  std::vector<int> file_columns_;    // the file's columns to read
  std::vector<int> output_sources_;  // per output field: its index in file_columns_, or -1
  size_t next_stripe_ = 0;
  int64_t stripe_first_row_ = 0;  // of the stripe in `current_`
  int64_t next_stripe_first_row_ = 0;
  std::optional<RecordBatch> current_;
  int64_t current_offset_ = 0;
  int64_t batch_row_position_ = 0;
};

}  // namespace floe::orc
