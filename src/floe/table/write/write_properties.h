#pragma once

// The settings a table's writers follow, read from the table properties and overridden by the
// write options of one job (the Flink connector's names):
//
//   write.format.default            write-format             parquet (avro, orc)
//   write.delete.format.default                              the data format
//   write.target-file-size-bytes    target-file-size-bytes   512 MiB
//   write.delete.target-file-size-bytes                      64 MiB
//   write.upsert.enabled            upsert-enabled           false
//   write.parquet.*                 compression-codec, compression-level (parquet and avro)
//
// What can go wrong: an unknown format, a size that is not a positive integer, a boolean that is
// neither true nor false, and bad write.parquet.* values are kInvalidArgument naming the property.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "floe/format/parquet/writer/writer_options.h"
#include "floe/util/error.h"

namespace floe::table {

enum class FileFormat : uint8_t { kParquet, kAvro, kOrc };

// "parquet", "avro", "orc" (as manifests record them).
std::string_view FileFormatName(FileFormat format);
// Case-insensitive.
Result<FileFormat> ParseFileFormat(std::string_view text);

struct WriteProperties {
  FileFormat format = FileFormat::kParquet;
  FileFormat delete_format = FileFormat::kParquet;
  int64_t target_file_size = 512LL << 20;
  int64_t delete_target_file_size = 64LL << 20;
  bool upsert = false;
  parquet::WriterOptions parquet;
  // Table properties with the options applied (format appenders read their own keys here).
  std::map<std::string, std::string> properties;

  static Result<WriteProperties> Parse(
      const std::map<std::string, std::string>& table_properties,
      const std::map<std::string, std::string>& write_options = {});
};

}  // namespace floe::table
