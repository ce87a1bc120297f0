#pragma once

// Iceberg data files in Avro (write-format 'avro'): rows of an Iceberg schema as Avro records of
// its Appendix A form (avro_data_schema.h), written from and read into RecordBatches.
//
// AvroDataWriter encodes batches column by column (format/avro/batch_encoder.h) and keeps the
// metrics Iceberg records for a data file: record count, and per column value, null and NaN
// counts (nested leaves included; list elements and map keys/values counted per element). Iceberg
// Java writes only the record count for Avro files and no bounds; floe writes no bounds either.
// Like Java it stores the Iceberg schema JSON under "iceberg.schema" in the file metadata.
//
// AvroDataReader reads a file as a projection of the table schema: columns are matched by field
// id, so renamed columns read; columns the file lacks read as their initial-default or null;
// int/float columns read as long/double, and decimals widen. One RecordBatch per Avro block.
//
// Errors: kInvalidArgument for a batch that does not fit the schema (a null in a required column,
// a wrong column type), an unknown codec property, or a required column the file lacks without a
// default; kCorruptData (with file and byte offset) for damaged files; the FileIO's errors.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>

#include "floe/batch/record_batch.h"
#include "floe/format/avro/container.h"
#include "floe/manifest/data_file.h"
#include "floe/spec/schema.h"
#include "floe/spec/snapshot.h"
#include "floe/util/error.h"

namespace floe::io {
class InputFile;
class OutputFile;
class FileWriter;
}  // namespace floe::io

namespace floe::avro {
class BatchEncoder;
class ContainerReader;
}  // namespace floe::avro

namespace floe::manifest {

// Table properties that choose the codec of Avro data files, and Iceberg Java's defaults.
inline constexpr std::string_view kAvroCompressionCodec = "write.avro.compression-codec";
inline constexpr std::string_view kAvroCompressionLevel = "write.avro.compression-level";

struct AvroDataWriterOptions {
  avro::AvroCodec codec = avro::AvroCodec::kDeflate;  // Java's default "gzip" is Avro's deflate
  int level = INT32_MIN;                              // the codec's default
  size_t block_size = 64 * 1024;
  std::optional<std::array<std::byte, avro::kSyncSize>> sync;  // fixed, for reproducible tests

  // From table properties: write.avro.compression-codec (uncompressed, gzip, snappy, zstd) and
  // write.avro.compression-level.
  static Result<AvroDataWriterOptions> FromProperties(const StringMap& properties);
};

// What a written file needs in its manifest entry's DataFile.
struct AvroDataFileMetrics {
  int64_t record_count = 0;
  int64_t file_size_in_bytes = 0;
  CountMap value_counts;
  CountMap null_value_counts;
  CountMap nan_value_counts;
};

class AvroDataWriter {
 public:
  static Result<std::unique_ptr<AvroDataWriter>> Open(io::OutputFile& file, SchemaPtr schema,
                                                      AvroDataWriterOptions options = {});
  // Into a file already created (the table writers create their files themselves).
  static Result<std::unique_ptr<AvroDataWriter>> Open(std::unique_ptr<io::FileWriter> file,
                                                      SchemaPtr schema,
                                                      AvroDataWriterOptions options = {});

  // The batch columns in schema order, of the types AvroBatchSchema(schema) gives (names and
  // nullability flags are not compared).
  Status Write(const RecordBatch& batch);
  // Flushes and closes the file.
  Result<AvroDataFileMetrics> Close();

  const SchemaPtr& schema() const { return schema_; }
  // Bytes handed to the file so far (a whole file after Close).
  uint64_t bytes_written() const;

  ~AvroDataWriter();

 private:
  AvroDataWriter();
  void Count(const RecordBatch& batch);

  SchemaPtr schema_;
  std::unique_ptr<io::FileWriter> file_;
  std::shared_ptr<const avro::Schema> avro_schema_;
  std::unique_ptr<avro::ContainerWriter> writer_;
  std::unique_ptr<avro::BatchEncoder> encoder_;
  AvroDataFileMetrics metrics_;
  bool closed_ = false;
};

class AvroDataReader {
 public:
  // projection: the Iceberg schema to read (the table schema, or a Project() of it). The
  // InputFile must outlive the reader.
  static Result<std::unique_ptr<AvroDataReader>> Open(const io::InputFile& file,
                                                      SchemaPtr projection);

  const BatchSchemaPtr& schema() const { return batch_schema_; }
  // The Iceberg schema the file was written with (its "iceberg.schema", else from its Avro schema).
  Result<SchemaPtr> FileSchema() const;

  // The next block's rows; nullopt at the end of the file.
  Result<std::optional<RecordBatch>> Next();

  ~AvroDataReader();

 private:
  AvroDataReader();

  SchemaPtr projection_;
  BatchSchemaPtr batch_schema_;
  DataTypePtr row_type_;
  std::unique_ptr<avro::ContainerReader> reader_;
};

}  // namespace floe::manifest
