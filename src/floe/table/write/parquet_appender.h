#pragma once

// The Parquet FileAppender: format/parquet's writer with the table's write.parquet.* options and
// metrics modes; its column statistics become Iceberg metrics (file_metrics.h) and its row-group
// starts the split offsets.

#include <memory>

#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/table/write/file_appender.h"

namespace floe::table {

class ParquetAppender final : public FileAppender {
 public:
  static Result<std::unique_ptr<FileAppender>> Make(std::unique_ptr<io::FileWriter> file,
                                                    const AppenderSpec& spec);
  Status Write(const RecordBatch& batch) override { return writer_->Write(batch); }
  Status Write(const RecordBatch& batch, std::span<const int64_t> rows) override {
    return writer_->Write(batch, rows);
  }
  int64_t EstimatedSize() const override { return writer_->EstimatedSize(); }
  Result<AppendResult> Close() override;

 private:
  ParquetAppender(std::unique_ptr<parquet::ParquetWriter> writer, SchemaPtr schema)
      : writer_(std::move(writer)), schema_(std::move(schema)) {}
  std::unique_ptr<parquet::ParquetWriter> writer_;
  SchemaPtr schema_;
};

}  // namespace floe::table
