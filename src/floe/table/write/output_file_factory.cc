#include "floe/table/write/output_file_factory.h"

#include <fmt/format.h>

#include "floe/util/uuid.h"

namespace floe::table {

OutputFileFactory::OutputFileFactory(LocationProvider locations, OutputFileFactoryOptions options)
    : locations_(std::move(locations)), options_(std::move(options)) {
  if (options_.operation_id.empty()) options_.operation_id = RandomUuid();
}

std::string OutputFileFactory::NextFileName() {
  const int64_t count = ++count_;
  std::string name = fmt::format("{:05d}-{}-{}-{:05d}", options_.partition_id, options_.task_id,
                                 options_.operation_id, count);
  if (!options_.suffix.empty()) name += "-" + options_.suffix;
  return name + "." + options_.format;
}

Result<std::string> OutputFileFactory::NextLocation(const PartitionSpec& spec,
                                                    std::span<const Literal> partition) {
  std::string name = NextFileName();
  if (spec.fields().empty()) return locations_.NewDataLocation(name);
  return locations_.NewDataLocation(spec, partition, name);
}

}  // namespace floe::table
