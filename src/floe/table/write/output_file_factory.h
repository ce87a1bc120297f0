#pragma once

// Names for the files one writer task creates, unique across tasks and attempts without any
// coordination, in the form Iceberg Java's OutputFileFactory writes:
//
//   {partition_id:05d}-{task_id}-{operation_id}-{count:05d}[-{suffix}].{format}
//   e.g. 00003-7-2d1d3f0e-5c52-4f0a-9a4e-3bcb8c1e6a1d-00001.parquet
//
// partition_id is the writer's subtask index, task_id its attempt, operation_id a random UUID
// per factory (or a caller's id, e.g. a query id), and count a per-factory counter starting at 1.
// Given the same inputs the names are the same, so tests can predict them. The counter is atomic:
// the writers of one task (one per partition) may share a factory from several threads.

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "floe/spec/literal.h"
#include "floe/spec/partition_spec.h"
#include "floe/table/write/location_provider.h"

namespace floe::table {

struct OutputFileFactoryOptions {
  int32_t partition_id = 0;
  int64_t task_id = 0;
  std::string operation_id;  // empty: a random UUID
  std::string suffix;        // e.g. "deletes"; empty: none
  std::string format = "parquet";
};

class OutputFileFactory {
 public:
  OutputFileFactory(LocationProvider locations, OutputFileFactoryOptions options);

  // The next file name (no folder).
  std::string NextFileName();
  // The next file's full location for a partition (empty values / unpartitioned spec: none).
  Result<std::string> NextLocation(const PartitionSpec& spec, std::span<const Literal> partition);

  // How many names this factory has given out: the files its writers have started.
  int64_t files_named() const { return count_.load(); }

  const LocationProvider& locations() const { return locations_; }
  const OutputFileFactoryOptions& options() const { return options_; }

 private:
  LocationProvider locations_;
  OutputFileFactoryOptions options_;
  std::atomic<int64_t> count_{0};
};

}  // namespace floe::table
