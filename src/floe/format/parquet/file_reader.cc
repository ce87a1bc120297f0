#include "floe/format/parquet/file_reader.h"

#include <filesystem>

#include "floe/format/parquet/footer.h"
#include "floe/format/parquet/metadata_thrift.h"

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

Result<std::string> FileReader::ColumnContext(size_t row_group, size_t column) const {
  if (row_group >= metadata_.row_groups.size() || column >= schema_.columns().size()) {
    return InvalidArgument("{}: no column {} in row group {} ({} row groups, {} columns)",
                           source_->name(), column, row_group, metadata_.row_groups.size(),
                           schema_.columns().size());
  }
  return fmt::format("{}: row group {}: column {}",
                     std::filesystem::path(source_->name()).filename().string(), row_group,
                     schema_.columns()[column].dotted_path());
}

template <typename T>
Result<std::unique_ptr<ColumnChunkReader<T>>> FileReader::ReadColumn(
    size_t row_group, size_t column, const ChunkRowSelection* selection) const {
  FLOE_ASSIGN_OR_RETURN(std::string context, ColumnContext(row_group, column));
  const ColumnChunk& chunk = metadata_.row_groups[row_group].columns[column];
  if (selection != nullptr) {
    return ColumnChunkReader<T>::MakeSelected(*source_, chunk, schema_.columns()[column],
                                              std::move(context), metadata_.created_by.value_or(""),
                                              *selection);
  }
  return ColumnChunkReader<T>::Make(*source_, chunk, schema_.columns()[column], std::move(context),
                                    metadata_.created_by.value_or(""));
}

namespace {

// The index bytes at offset, checked against the file before reading.
Result<std::optional<std::vector<std::byte>>> ReadIndexBytes(const RandomAccessSource& source,
                                                             const std::optional<int64_t>& offset,
                                                             const std::optional<int32_t>& length,
                                                             const std::string& context) {
  if (!offset || !length) return std::nullopt;
  if (*offset < 0 || *length <= 0) {
    return CorruptData("{}: page index at offset {} of {} bytes", context, *offset, *length);
  }
  auto bytes = source.Read(static_cast<uint64_t>(*offset), static_cast<uint64_t>(*length));
  if (!bytes) return std::unexpected(std::move(bytes.error().AddContext(context)));
  return std::move(*bytes);
}

}  // namespace

Result<std::optional<OffsetIndex>> FileReader::ReadOffsetIndex(size_t row_group,
                                                               size_t column) const {
  FLOE_ASSIGN_OR_RETURN(std::string context, ColumnContext(row_group, column));
  const ColumnChunk& chunk = metadata_.row_groups[row_group].columns[column];
  FLOE_ASSIGN_OR_RETURN(auto bytes, ReadIndexBytes(*source_, chunk.offset_index_offset,
                                                   chunk.offset_index_length, context));
  if (!bytes) return std::nullopt;
  auto index = DecodeOffsetIndex(*bytes);
  if (!index) {
    return std::unexpected(std::move(index.error().AddContext(
        fmt::format("{}: offset index at offset {}", context, *chunk.offset_index_offset))));
  }
  return std::move(*index);
}

Result<std::optional<ColumnIndex>> FileReader::ReadColumnIndex(size_t row_group,
                                                               size_t column) const {
  FLOE_ASSIGN_OR_RETURN(std::string context, ColumnContext(row_group, column));
  const ColumnChunk& chunk = metadata_.row_groups[row_group].columns[column];
  FLOE_ASSIGN_OR_RETURN(auto bytes, ReadIndexBytes(*source_, chunk.column_index_offset,
                                                   chunk.column_index_length, context));
  if (!bytes) return std::nullopt;
  auto index = DecodeColumnIndex(*bytes);
  if (!index) {
    return std::unexpected(std::move(index.error().AddContext(
        fmt::format("{}: column index at offset {}", context, *chunk.column_index_offset))));
  }
  return std::move(*index);
}

template Result<std::unique_ptr<ColumnChunkReader<bool>>> FileReader::ReadColumn(
    size_t, size_t, const ChunkRowSelection*) const;
template Result<std::unique_ptr<ColumnChunkReader<int32_t>>> FileReader::ReadColumn(
    size_t, size_t, const ChunkRowSelection*) const;
template Result<std::unique_ptr<ColumnChunkReader<int64_t>>> FileReader::ReadColumn(
    size_t, size_t, const ChunkRowSelection*) const;
template Result<std::unique_ptr<ColumnChunkReader<Int96>>> FileReader::ReadColumn(
    size_t, size_t, const ChunkRowSelection*) const;
template Result<std::unique_ptr<ColumnChunkReader<float>>> FileReader::ReadColumn(
    size_t, size_t, const ChunkRowSelection*) const;
template Result<std::unique_ptr<ColumnChunkReader<double>>> FileReader::ReadColumn(
    size_t, size_t, const ChunkRowSelection*) const;
template Result<std::unique_ptr<ColumnChunkReader<ByteArray>>> FileReader::ReadColumn(
    size_t, size_t, const ChunkRowSelection*) const;

}  // namespace floe::parquet
