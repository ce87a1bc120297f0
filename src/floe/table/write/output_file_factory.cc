#include "floe/table/write/output_file_factory.h"

#include <fmt/format.h>

#include <random>

namespace floe::table {

std::string RandomUuid() {
  thread_local std::mt19937_64 engine{std::random_device{}()};
  uint64_t hi = engine();
  uint64_t lo = engine();
  hi = (hi & ~0xF000ULL) | 0x4000ULL;              // version 4
  lo = (lo & ~(0xC0ULL << 56)) | (0x80ULL << 56);  // variant 10
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", hi >> 32, (hi >> 16) & 0xFFFF,
                     hi & 0xFFFF, lo >> 48, lo & 0xFFFFFFFFFFFFULL);
}

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
