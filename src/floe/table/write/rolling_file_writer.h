#pragma once

// Writes rows of one partition into files of one format, closing the current file and opening the
// next once it reaches the target size (write.target-file-size-bytes). The size is the appender's
// estimate (bytes written plus buffered), checked every kRollCheckRows rows, so a file overshoots
// its target by at most that many rows. Files are opened at the first row, so no input means no
// file. Close returns one DataFile per file, filled from a template (content, equality ids, sort
// order) with the partition, format, counts, size, split offsets and metrics.
//
// The FileIO and OutputFileFactory are borrowed and must outlive the writer. Not thread-safe.
// What can go wrong: appender and I/O errors; after an error, files already written are listed by
// written_locations() so that the caller can delete them.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "floe/manifest/data_file.h"
#include "floe/spec/partition_spec.h"
#include "floe/table/write/file_appender.h"
#include "floe/table/write/output_file_factory.h"

namespace floe::table {

struct RollingFileWriterOptions {
  io::FileIO* io = nullptr;
  OutputFileFactory* files = nullptr;
  FileFormat format = FileFormat::kParquet;
  int64_t target_file_size = 512LL << 20;
  AppenderSpec appender;
  PartitionSpecPtr spec;           // null: unpartitioned
  std::vector<Literal> partition;  // one value per field of spec
  // content, equality_ids, sort_order_id, referenced_data_file are copied into every file.
  manifest::DataFile file_template;
};

class RollingFileWriter {
 public:
  static constexpr int64_t kRollCheckRows = 4096;

  explicit RollingFileWriter(RollingFileWriterOptions options);
  RollingFileWriter(RollingFileWriter&&) = default;
  RollingFileWriter& operator=(RollingFileWriter&&) = default;

  Status Write(const RecordBatch& batch);
  // Rows `rows` of the batch, in that order (FileAppender::Write).
  Status Write(const RecordBatch& batch, std::span<const int64_t> rows);

  // For writers that must know where rows land (position deletes of their own rows): the
  // location of the file the next row goes to, opened (or rolled) now, and its rows so far. Rows
  // written with WriteToCurrent right after go to that file at that position onwards.
  struct Position {
    std::string location;
    int64_t row = 0;
  };
  Result<Position> NextPosition();
  Status WriteToCurrent(const RecordBatch& batch);

  // Closes the open file and returns every file written, in order.
  Result<std::vector<manifest::DataFile>> Close();

  const std::vector<std::string>& written_locations() const { return locations_; }
  const RollingFileWriterOptions& options() const { return options_; }

 private:
  Status Open();
  Status CloseCurrent();

  RollingFileWriterOptions options_;
  std::unique_ptr<FileAppender> current_;
  std::string current_location_;
  int64_t current_rows_ = 0;
  int64_t unchecked_rows_ = 0;  // rows written by Write(batch, rows) since the last size check
  std::vector<std::string> locations_;
  std::vector<manifest::DataFile> files_;
};

}  // namespace floe::table
