#pragma once

// A source reading CSV, JSON lines or Parquet files through a FileIO, bounded over one file or the
// files of a folder, or unbounded over a monitored folder. Options:
//
//   path              a file, or a folder whose files (not subfolders; names starting with '.'
//                     or '_' are skipped, as in-progress files are) are read in name order
//   format            csv | json | parquet
//   monitor-interval  when set (milliseconds, or a number with ms, s or min), the folder is listed
//                     again at this interval and new files are read: the source is unbounded.
//                     Files must appear whole (written elsewhere or under a skipped name, then
//                     renamed in): a file is read once, as it is when its turn comes.
//   batch-size        rows per emitted batch (default 4096)
//   split-size        bytes: Parquet files larger than this are read as several splits of
//                     this many bytes each (default 32 MB), so that parallel readers share a
//                     large file evenly (splits are handed out as readers ask)
//   csv.header        true: the first record of every CSV file is a header and skipped
//
// The columns are the given schema for CSV (by position) and JSON lines (by key; other keys are
// ignored; a missing key or null is a null); Parquet files are read with the given schema's
// columns (by field id, else name) or, without one, with the columns of the first file found.
// Empty CSV fields are nulls. Text cells are parsed as in `floe convert` (text_columns.h).
//
// Splits are files, and byte ranges of the Parquet files larger than split-size: a range reads
// the row groups whose first byte lies in it (Iceberg's rule, parquet::ReadOptions::byte_range),
// so the ranges of a file read each row group once, and a range may hold none. The enumerator's
// state is the files it has found and the splits not yet handed out; a reader's state is one
// entry per unfinished split with the rows it already emitted, so a restore skips exactly those
// (also with another parallelism: an entry is one split). Positions (recorded by sinks,
// docs/iceberg-sink.md): the enumerator's is the number of files found, of those none of whose
// splits was handed out yet, and the file of the last split handed out; a reader's the split it
// read last and its rows read.
//
// Errors: Make fails with kInvalidArgument naming the option (unknown option, bad format or
// interval, a column type text cannot hold) or kNotFound for a missing path; reading fails with a
// message naming the file and line (malformed CSV or JSON, wrong field count, a cell that does not
// parse).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "floe/io/file_io.h"
#include "floe/stream/source.h"

namespace floe::stream {

class FileSource : public Source, public std::enable_shared_from_this<FileSource> {
 public:
  enum class Format { kCsv, kJson, kParquet };

  // `schema` may be null for Parquet.
  static Result<std::shared_ptr<FileSource>> Make(
      std::shared_ptr<io::FileIO> io, BatchSchemaPtr schema,
      const std::map<std::string, std::string>& options);

  BatchSchemaPtr schema() const override { return schema_; }
  bool bounded() const override { return !monitor_interval_ms_.has_value(); }
  Result<std::unique_ptr<SplitEnumerator>> CreateEnumerator() override;
  Result<std::unique_ptr<SourceReader>> CreateReader(int subtask_index) override;

  // The files to read now, in order (one file, or the folder's files), with their sizes.
  Result<std::vector<io::FileEntry>> ListFiles() const;

  io::FileIO& io() const { return *io_; }
  Format format() const { return format_; }
  int64_t batch_size() const { return batch_size_; }
  int64_t split_size() const { return split_size_; }
  bool csv_header() const { return csv_header_; }
  std::optional<int64_t> monitor_interval_ms() const { return monitor_interval_ms_; }

 private:
  FileSource() = default;

  std::shared_ptr<io::FileIO> io_;
  BatchSchemaPtr schema_;
  std::string path_;
  io::FileEntry path_entry_;  // what path is (a folder, or a file of its size), as Make found it
  Format format_ = Format::kCsv;
  std::optional<int64_t> monitor_interval_ms_;
  int64_t batch_size_ = 4096;
  int64_t split_size_ = int64_t{32} << 20;
  bool csv_header_ = false;
};

}  // namespace floe::stream
