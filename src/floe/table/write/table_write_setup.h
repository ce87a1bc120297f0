#pragma once

// The writer settings of one table as its metadata has them (write properties, metrics config,
// file naming under the table's location, the current schema as batch fields), for code that
// writes files into a table outside the streaming sink: actions such as rewrite_data_files, and
// tests. Context() gives the WriterContext for a partition spec; the setup must outlive every
// writer made from it.
//
// Errors: malformed write properties or metrics modes (kInvalidArgument naming the property).

#include <map>
#include <memory>
#include <string>

#include "floe/io/file_io.h"
#include "floe/spec/table_metadata.h"
#include "floe/table/write/metrics_config.h"
#include "floe/table/write/output_file_factory.h"
#include "floe/table/write/write_properties.h"
#include "floe/table/write/writer_context.h"

namespace floe::table {

class TableWriteSetup {
 public:
  // write_options override the table properties (as Flink write options do). operation_id names
  // the files apart from those of other writers (empty: a random UUID).
  static Result<std::unique_ptr<TableWriteSetup>> Make(
      const TableMetadata& metadata, io::FileIO* io,
      const std::map<std::string, std::string>& write_options = {}, std::string operation_id = "");

  // A context writing rows of the current schema with `spec` (nullptr or unpartitioned: none).
  WriterContext Context(PartitionSpecPtr spec) const;
  const WriteProperties& properties() const { return properties_; }
  WriteProperties& properties() { return properties_; }
  const BatchSchemaPtr& batch_schema() const { return batch_schema_; }

 private:
  TableWriteSetup() = default;

  io::FileIO* io_ = nullptr;
  int format_version_ = 2;
  SchemaPtr schema_;
  BatchSchemaPtr batch_schema_;
  WriteProperties properties_;
  MetricsConfig metrics_;
  std::unique_ptr<OutputFileFactory> data_files_;
  std::unique_ptr<OutputFileFactory> delete_files_;
};

}  // namespace floe::table
