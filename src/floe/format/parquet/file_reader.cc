#include "floe/format/parquet/file_reader.h"

#include <filesystem>

#include "floe/format/parquet/footer.h"

namespace floe::parquet {

Result<std::unique_ptr<FileReader>> FileReader::Open(std::unique_ptr<RandomAccessSource> source) {
  FLOE_ASSIGN_OR_RETURN(FileMetaData metadata, ReadFooter(*source));
  auto schema = SchemaTree::Make(metadata.schema);
  if (!schema) return std::unexpected(std::move(schema.error().AddContext(source->name())));
  FLOE_RETURN_IF_ERROR_CTX(CheckRowGroups(metadata, *schema), source->name());
  return std::make_unique<FileReader>(std::move(source), std::move(metadata), std::move(*schema));
}

Result<std::unique_ptr<FileReader>> FileReader::OpenPath(const std::filesystem::path& path) {
  FLOE_ASSIGN_OR_RETURN(auto source, OpenLocalFile(path));
  return Open(std::move(source));
}

template <typename T>
Result<std::unique_ptr<ColumnChunkReader<T>>> FileReader::ReadColumn(size_t row_group,
                                                                     size_t column) const {
  if (row_group >= metadata_.row_groups.size() || column >= schema_.columns().size()) {
    return InvalidArgument("{}: no column {} in row group {} ({} row groups, {} columns)",
                           source_->name(), column, row_group, metadata_.row_groups.size(),
                           schema_.columns().size());
  }
  const ColumnDescriptor& descriptor = schema_.columns()[column];
  std::string context = fmt::format("{}: row group {}: column {}",
                                    std::filesystem::path(source_->name()).filename().string(),
                                    row_group, descriptor.dotted_path());
  return ColumnChunkReader<T>::Make(*source_, metadata_.row_groups[row_group].columns[column],
                                    descriptor, std::move(context),
                                    metadata_.created_by.value_or(""));
}

template Result<std::unique_ptr<ColumnChunkReader<bool>>> FileReader::ReadColumn(size_t,
                                                                                 size_t) const;
template Result<std::unique_ptr<ColumnChunkReader<int32_t>>> FileReader::ReadColumn(size_t,
                                                                                    size_t) const;
template Result<std::unique_ptr<ColumnChunkReader<int64_t>>> FileReader::ReadColumn(size_t,
                                                                                    size_t) const;
template Result<std::unique_ptr<ColumnChunkReader<Int96>>> FileReader::ReadColumn(size_t,
                                                                                  size_t) const;
template Result<std::unique_ptr<ColumnChunkReader<float>>> FileReader::ReadColumn(size_t,
                                                                                  size_t) const;
template Result<std::unique_ptr<ColumnChunkReader<double>>> FileReader::ReadColumn(size_t,
                                                                                   size_t) const;
template Result<std::unique_ptr<ColumnChunkReader<ByteArray>>> FileReader::ReadColumn(size_t,
                                                                                      size_t) const;

}  // namespace floe::parquet
