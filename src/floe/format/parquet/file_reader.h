#pragma once

// An open Parquet file: its source, decoded footer and schema tree, checked for consistency once
// (one column chunk per leaf in every row group), and column chunk readers on demand. Every error
// names the file. The batch-building reader sits on top of this.

#include <memory>
#include <optional>
#include <string>

#include "floe/format/parquet/column_reader.h"
#include "floe/format/parquet/metadata.h"
#include "floe/format/parquet/schema.h"
#include "floe/format/parquet/source.h"
#include "floe/util/error.h"

namespace floe::parquet {

class FileReader {
 public:
  static Result<std::unique_ptr<FileReader>> Open(std::unique_ptr<RandomAccessSource> source);
  static Result<std::unique_ptr<FileReader>> OpenPath(const std::filesystem::path& path);

  const RandomAccessSource& source() const { return *source_; }
  const FileMetaData& metadata() const { return metadata_; }
  const SchemaTree& schema() const { return schema_; }

  // T must match the column's physical type (see ColumnChunkReader). With a selection, only its
  // rows are read (columns without repetition only).
  template <typename T>
  Result<std::unique_ptr<ColumnChunkReader<T>>> ReadColumn(
      size_t row_group, size_t column, const ChunkRowSelection* selection = nullptr) const;

  // A chunk's page index, nullopt when the writer stored none.
  Result<std::optional<OffsetIndex>> ReadOffsetIndex(size_t row_group, size_t column) const;
  Result<std::optional<ColumnIndex>> ReadColumnIndex(size_t row_group, size_t column) const;

  FileReader(std::unique_ptr<RandomAccessSource> source, FileMetaData metadata, SchemaTree schema)
      : source_(std::move(source)), metadata_(std::move(metadata)), schema_(std::move(schema)) {}

 private:
  Result<std::string> ColumnContext(size_t row_group, size_t column) const;

  std::unique_ptr<RandomAccessSource> source_;
  FileMetaData metadata_;
  SchemaTree schema_;
};

}  // namespace floe::parquet
