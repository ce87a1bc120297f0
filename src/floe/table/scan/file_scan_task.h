#pragma once

// The unit of work a scan plans and a task reader reads: a byte range of one data file, the delete
// files that apply to its rows, and the part of the filter its partition does not already decide.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "floe/expr/expression.h"
#include "floe/manifest/data_file.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"

namespace floe::table {

using DataFilePtr = std::shared_ptr<const manifest::DataFile>;

struct FileScanTask {
  DataFilePtr data_file;
  // The data sequence number of data_file (after inheritance); 0 in v1 tables.
  int64_t data_sequence_number = 0;
  // Position deletes, equality deletes and deletion vectors (position deletes in Puffin:
  // file_format "puffin" with content_offset / content_size_in_bytes) that apply to data_file,
  // already matched by sequence number, partition and referenced_data_file.
  std::vector<DataFilePtr> deletes;
  // The spec data_file was written with.
  PartitionSpecPtr spec;
  // The byte range of data_file to read. Readers of Parquet read the row groups whose first
  // page starts in [start, start + length); the whole file when start is 0 and length its size.
  int64_t start = 0;
  int64_t length = 0;
  // Rows must still satisfy this (always-true when the partition decides everything); bound to
  // the table schema.
  expr::ExprPtr residual;
  // When the scan rewrote locations (location_mapping.h): the path the table's metadata records
  // for data_file; empty otherwise. Use RecordedPath().
  std::string recorded_path;

  bool whole_file() const { return start == 0 && length == data_file->file_size_in_bytes; }
  // The path position delete files name data_file by: readers match delete rows against this,
  // not against data_file->file_path, which may have been mapped.
  const std::string& RecordedPath() const {
    return recorded_path.empty() ? data_file->file_path : recorded_path;
  }
};

// Tasks grouped for one reader (split planning bins small files together up to the target size).
struct CombinedScanTask {
  std::vector<FileScanTask> tasks;
};

}  // namespace floe::table
