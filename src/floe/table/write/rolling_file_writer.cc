#include "floe/table/write/rolling_file_writer.h"

namespace floe::table {
namespace {

// Data and delete files reach stable storage as they close. The commit that names a file syncs
// only the table's metadata, so without this a machine crash after the commit could leave a
// snapshot pointing at a file whose bytes never reached the disk.
class SyncOnClose final : public io::FileWriter {
 public:
  explicit SyncOnClose(std::unique_ptr<io::FileWriter> file) : file_(std::move(file)) {}

  const std::string& location() const override { return file_->location(); }
  Status Write(std::span<const std::byte> data) override { return file_->Write(data); }
  Status Sync() override { return file_->Sync(); }
  Status Close() override {
    if (!closed_) {
      closed_ = true;
      Status synced = file_->Sync();
      Status closed = file_->Close();
      return synced ? closed : synced;
    }
    return file_->Close();
  }
  int64_t position() const override { return file_->position(); }

 private:
  std::unique_ptr<io::FileWriter> file_;
  bool closed_ = false;
};

}  // namespace

RollingFileWriter::RollingFileWriter(RollingFileWriterOptions options)
    : options_(std::move(options)) {}

Status RollingFileWriter::Open() {
  unchecked_rows_ = 0;
  const PartitionSpec& spec = options_.spec ? *options_.spec : *PartitionSpec::Unpartitioned();
  FLOE_ASSIGN_OR_RETURN(current_location_, options_.files->NextLocation(spec, options_.partition));
  FLOE_ASSIGN_OR_RETURN(auto output, options_.io->NewOutputFile(current_location_));
  FLOE_ASSIGN_OR_RETURN(auto file, output->Create());
  locations_.push_back(current_location_);
  FLOE_ASSIGN_OR_RETURN(
      current_, MakeFileAppender(options_.format, std::make_unique<SyncOnClose>(std::move(file)),
                                 options_.appender));
  current_rows_ = 0;
  return {};
}

Status RollingFileWriter::CloseCurrent() {
  if (!current_) return {};
  std::unique_ptr<FileAppender> appender = std::move(current_);
  FLOE_ASSIGN_OR_RETURN(AppendResult result, appender->Close());
  if (result.record_count == 0) {
    // Opened for a position that was never written: an empty file is no use to a table.
    locations_.pop_back();
    return options_.io->Delete(current_location_);
  }
  manifest::DataFile file = options_.file_template;
  file.file_path = current_location_;
  file.file_format = std::string(FileFormatName(options_.format));
  file.spec_id = options_.spec ? options_.spec->spec_id() : 0;
  file.partition = options_.partition;
  file.record_count = result.record_count;
  file.file_size_in_bytes = result.file_size;
  file.split_offsets = std::move(result.split_offsets);
  std::move(result.metrics).MoveInto(file);
  files_.push_back(std::move(file));
  return {};
}

Result<RollingFileWriter::Position> RollingFileWriter::NextPosition() {
  if (current_ && current_->EstimatedSize() >= options_.target_file_size) {
    FLOE_RETURN_IF_ERROR(CloseCurrent());
  }
  if (!current_) FLOE_RETURN_IF_ERROR(Open());
  return Position{current_location_, current_rows_};
}

Status RollingFileWriter::WriteToCurrent(const RecordBatch& batch) {
  if (batch.num_rows() == 0) return {};
  if (!current_) FLOE_RETURN_IF_ERROR(Open());
  FLOE_RETURN_IF_ERROR(current_->Write(batch));
  current_rows_ += batch.num_rows();
  return {};
}

Status RollingFileWriter::Write(const RecordBatch& batch) {
  for (int64_t offset = 0; offset < batch.num_rows(); offset += kRollCheckRows) {
    FLOE_RETURN_IF_ERROR(NextPosition());
    FLOE_RETURN_IF_ERROR(WriteToCurrent(batch.Slice(offset, kRollCheckRows)));
  }
  return {};
}

Status RollingFileWriter::Write(const RecordBatch& batch, std::span<const int64_t> rows) {
  while (!rows.empty()) {
    // A writer fed a few rows per call (one table's share of a batch) checks the size once per
    // kRollCheckRows rows, not per call.
    if (!current_ || unchecked_rows_ >= kRollCheckRows) {
      FLOE_RETURN_IF_ERROR(NextPosition());
      unchecked_rows_ = 0;
    }
    const size_t count =
        std::min(rows.size(), static_cast<size_t>(kRollCheckRows - unchecked_rows_));
    FLOE_RETURN_IF_ERROR(current_->Write(batch, rows.first(count)));
    current_rows_ += static_cast<int64_t>(count);
    unchecked_rows_ += static_cast<int64_t>(count);
    rows = rows.subspan(count);
  }
  return {};
}

Result<std::vector<manifest::DataFile>> RollingFileWriter::Close() {
  FLOE_RETURN_IF_ERROR(CloseCurrent());
  return std::move(files_);
}

}  // namespace floe::table
