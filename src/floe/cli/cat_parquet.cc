#include "floe/cli/cat_parquet.h"

#include "floe/batch/value.h"
#include "floe/cli/command_line_io.h"
#include "floe/format/parquet/reader/batch_reader.h"

namespace floe::cli {

Status CatParquet(const std::string& path, std::FILE* out) {
  parquet::ReadOptions options;
  options.batch_rows = 4096;
  FLOE_ASSIGN_OR_RETURN(auto reader, OpenParquetFile(path, options));
  std::string text;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, reader->Next());
    if (!batch) break;
    text.clear();
    AppendJsonLines(*batch, text);
    if (std::fwrite(text.data(), 1, text.size(), out) != text.size()) {
      return IOError("writing the rows of {} failed", path);
    }
  }
  return Ok();
}

}  // namespace floe::cli
