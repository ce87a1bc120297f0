#pragma once

// The settings of one IcebergSink, resolved once against the table it writes: the Flink
// connector's write options, each falling back to the table property it overrides
// (table/write/write_properties.h does the file-writing side):
//
//   option                   table property                      default
//   write-format             write.format.default                parquet (avro; orc is refused)
//   target-file-size-bytes   write.target-file-size-bytes        512 MiB
//   compression-codec        write.<format>.compression-codec    the format's default
//   compression-level        write.<format>.compression-level
//   upsert-enabled           write.upsert.enabled                false
//   overwrite-enabled                                            false
//   distribution-mode        write.distribution-mode             none (hash, range)
//   write-parallelism                                            the input's parallelism
//   branch                                                       main
//   equality-field-columns                                       the schema's identifier fields
//   max-open-files           floe.sink.max-open-files            1000 (per writer subtask,
//                                                                without equality fields)
//   max-continuous-empty-commits
//                            floe.max-continuous-empty-commits,  10
//                            flink.max-continuous-empty-commits
//
// What can go wrong (kInvalidArgument naming the option, kUnsupported for what floe cannot do):
// an unknown option, a malformed value, overwrite and upsert together, upsert on a v1 table or
// without equality fields, in upsert mode a partition source column that is not an equality
// field, equality columns that are not top-level primitive columns, and ORC files.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "floe/spec/table_metadata.h"
#include "floe/table/write/write_properties.h"
#include "floe/util/error.h"

namespace floe::stream {

enum class DistributionMode : uint8_t { kNone, kHash, kRange };

// "none", "hash", "range" (case-insensitive).
Result<DistributionMode> ParseDistributionMode(std::string_view text);

struct SinkOptions {
  table::WriteProperties write;
  bool upsert = false;
  bool overwrite = false;
  DistributionMode distribution = DistributionMode::kNone;
  int write_parallelism = 0;  // 0: the input's
  std::string branch = "main";
  // Field ids of the equality (key) columns; empty for append-only writing. Set whenever the
  // table (v2+) has identifier fields or equality-field-columns names some, so that change
  // streams (-U/-D rows) can be written as deletes even outside upsert mode.
  std::vector<int32_t> equality_field_ids;
  size_t max_open_files = 1000;
  int max_continuous_empty_commits = 10;

  // options: the job's write options (Set / SetAll of the builder); equality_columns: the
  // builder's EqualityFieldColumns, which win over the option of the same name.
  static Result<SinkOptions> Resolve(const TableMetadata& metadata,
                                     const std::map<std::string, std::string>& options,
                                     const std::vector<std::string>& equality_columns = {});
};

}  // namespace floe::stream
