#pragma once

// Reads an unrepeated top-level leaf column of one row group straight into batch builders, page by
// page: the chunk's pages are decompressed only as the rows reach them, fixed-width values whose
// physical and batch types agree are decoded into the builder's memory (PLAIN pages by a copy),
// definition levels become the validity bitmap, and dictionary pages are gathered into the output.
// Memory is a page and a batch, not a decoded row group. The conversion is chosen once per chunk.
//
// Errors are kCorruptData (a chunk with fewer or more values than the rows read, and whatever the
// page and value decoders report), naming the file, row group and column.

#include <cstdint>
#include <memory>
#include <string>

#include "floe/batch/builder.h"
#include "floe/format/parquet/column_reader.h"
#include "floe/format/parquet/reader/schema_mapping.h"
#include "floe/util/error.h"

namespace floe::parquet {

class FileReader;

class FlatColumnReader {
 public:
  virtual ~FlatColumnReader() = default;
  // Appends the next `rows` rows of the selection to builder, which builds the column's mapped
  // type.
  virtual Status Read(ArrayBuilder& builder, int64_t rows) = 0;
  // After the last row: fails when the chunk holds values past the rows read.
  virtual Status CheckExhausted() = 0;
};

// `selection` (null: every row) must outlive the reader; `where` names the file and row group.
Result<std::unique_ptr<FlatColumnReader>> MakeFlatColumnReader(const FileReader& file,
                                                               size_t row_group, int column,
                                                               LeafConversion conversion,
                                                               const ChunkRowSelection* selection,
                                                               std::string where);

}  // namespace floe::parquet
