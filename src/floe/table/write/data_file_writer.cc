#include "floe/table/write/data_file_writer.h"

namespace floe::table {
namespace {

RollingFileWriterOptions ForData(RollingFileWriterOptions options,
                                 std::optional<int32_t> sort_order_id) {
  options.file_template.content = manifest::FileContent::kData;
  options.file_template.sort_order_id = sort_order_id;
  options.file_template.equality_ids.clear();
  return options;
}

}  // namespace

DataFileWriter::DataFileWriter(RollingFileWriterOptions options,
                               std::optional<int32_t> sort_order_id)
    : files_(ForData(std::move(options), sort_order_id)) {}

}  // namespace floe::table
