#pragma once

// The Avro FileAppender (write-format 'avro'): manifest/avro_data_file.h's writer with the
// table's write.avro.* codec settings. Avro files get what Iceberg Java records for them: record
// count, value, null and NaN counts, and no bounds or column sizes; they have no split offsets.

#include <memory>

#include "floe/table/write/file_appender.h"

namespace floe::manifest {
class AvroDataWriter;
}

namespace floe::table {

class AvroAppender final : public FileAppender {
 public:
  static Result<std::unique_ptr<FileAppender>> Make(std::unique_ptr<io::FileWriter> file,
                                                    const AppenderSpec& spec);
  ~AvroAppender() override;

  using FileAppender::Write;
  Status Write(const RecordBatch& batch) override;
  int64_t EstimatedSize() const override;
  Result<AppendResult> Close() override;

 private:
  explicit AvroAppender(std::unique_ptr<manifest::AvroDataWriter> writer);
  std::unique_ptr<manifest::AvroDataWriter> writer_;
};

}  // namespace floe::table
