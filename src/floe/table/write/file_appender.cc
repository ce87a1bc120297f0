#include "floe/table/write/file_appender.h"

#include "floe/batch/take.h"
#include "floe/table/write/avro_appender.h"
#include "floe/table/write/parquet_appender.h"

namespace floe::table {

Status FileAppender::Write(const RecordBatch& batch, std::span<const int64_t> rows) {
  FLOE_ASSIGN_OR_RETURN(RecordBatch chosen, TakeBatch(batch, rows));
  return Write(chosen);
}

Result<std::unique_ptr<FileAppender>> MakeFileAppender(FileFormat format,
                                                       std::unique_ptr<io::FileWriter> file,
                                                       const AppenderSpec& spec) {
  switch (format) {
    case FileFormat::kParquet:
      return ParquetAppender::Make(std::move(file), spec);
    case FileFormat::kAvro:
      return AvroAppender::Make(std::move(file), spec);
    default:
      return Unsupported("{}: floe writes no {} data files", file->location(),
                         FileFormatName(format));
  }
}

}  // namespace floe::table
