#include "floe/table/write/table_write_setup.h"

#include "floe/spec/partition_spec.h"
#include "floe/table/scan/batch_types.h"
#include "floe/util/uuid.h"

namespace floe::table {

Result<std::unique_ptr<TableWriteSetup>> TableWriteSetup::Make(
    const TableMetadata& metadata, io::FileIO* io,
    const std::map<std::string, std::string>& write_options, std::string operation_id) {
  std::unique_ptr<TableWriteSetup> setup(new TableWriteSetup());
  const std::map<std::string, std::string> properties(metadata.properties().begin(),
                                                      metadata.properties().end());
  FLOE_ASSIGN_OR_RETURN(setup->properties_, WriteProperties::Parse(properties, write_options));
  FLOE_ASSIGN_OR_RETURN(setup->metrics_,
                        MetricsConfig::Make(properties, *metadata.current_schema()));
  FLOE_ASSIGN_OR_RETURN(std::vector<Field> fields, ToBatchFields(*metadata.current_schema()));
  setup->io_ = io;
  setup->format_version_ = metadata.format_version();
  setup->schema_ = metadata.current_schema();
  setup->batch_schema_ = std::make_shared<const BatchSchema>(std::move(fields));
  if (operation_id.empty()) operation_id = RandomUuid();
  LocationProvider locations(metadata.location(), properties);
  setup->data_files_ = std::make_unique<OutputFileFactory>(
      locations,
      OutputFileFactoryOptions{.operation_id = operation_id,
                               .format = std::string(FileFormatName(setup->properties_.format))});
  setup->delete_files_ = std::make_unique<OutputFileFactory>(
      locations, OutputFileFactoryOptions{
                     .operation_id = operation_id,
                     .suffix = "deletes",
                     .format = std::string(FileFormatName(setup->properties_.delete_format))});
  return setup;
}

WriterContext TableWriteSetup::Context(PartitionSpecPtr spec) const {
  WriterContext context;
  context.io = io_;
  context.data_files = data_files_.get();
  context.delete_files = delete_files_.get();
  context.properties = &properties_;
  context.schema = schema_;
  context.batch_schema = batch_schema_;
  context.metrics = metrics_;
  context.format_version = format_version_;
  if (spec && !spec->is_unpartitioned()) context.spec = std::move(spec);
  return context;
}

}  // namespace floe::table
