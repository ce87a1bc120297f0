#pragma once

// What the writers of one task share: storage, file naming, the table's write settings, and the
// schema and partition spec rows are written with. Partitioned and delta writers make their
// per-partition file writers from it. Pointers are borrowed: the objects must outlive every
// writer made from the context.

#include <optional>
#include <vector>

#include "floe/table/write/rolling_file_writer.h"

namespace floe::table {

struct WriterContext {
  io::FileIO* io = nullptr;
  OutputFileFactory* data_files = nullptr;
  OutputFileFactory* delete_files = nullptr;  // e.g. with suffix "deletes"; null: data_files
  const WriteProperties* properties = nullptr;
  SchemaPtr schema;
  BatchSchemaPtr batch_schema;  // batches written must have exactly these fields
  MetricsConfig metrics;
  PartitionSpecPtr spec;  // null: unpartitioned
  std::optional<int32_t> sort_order_id;
  // The table's format version: from 3 on, position deletes are written as deletion vectors.
  int format_version = 2;

  // Options for the data files of one partition.
  RollingFileWriterOptions DataOptions(std::vector<Literal> partition) const {
    RollingFileWriterOptions options = Base(std::move(partition), data_files);
    options.format = properties->format;
    options.target_file_size = properties->target_file_size;
    return options;
  }
  // Options for delete files of one partition holding rows of the given schemas.
  RollingFileWriterOptions DeleteOptions(std::vector<Literal> partition, SchemaPtr rows_schema,
                                         BatchSchemaPtr rows_batch_schema) const {
    RollingFileWriterOptions options =
        Base(std::move(partition), delete_files != nullptr ? delete_files : data_files);
    options.format = properties->delete_format;
    options.target_file_size = properties->delete_target_file_size;
    options.appender.schema = std::move(rows_schema);
    options.appender.batch_schema = std::move(rows_batch_schema);
    return options;
  }

 private:
  RollingFileWriterOptions Base(std::vector<Literal> partition, OutputFileFactory* files) const {
    RollingFileWriterOptions options;
    options.io = io;
    options.files = files;
    options.appender = AppenderSpec{schema, batch_schema, metrics, properties};
    options.spec = spec;
    options.partition = std::move(partition);
    return options;
  }
};

// What a task's writers produce for one commit (Iceberg's WriteResult): new data files, new
// delete files, and the data files those deletes point at by position (a row-delta commit checks
// that they still exist).
struct WriteResult {
  std::vector<manifest::DataFile> data_files;
  std::vector<manifest::DataFile> delete_files;
  std::vector<std::string> referenced_data_files;
};

}  // namespace floe::table
