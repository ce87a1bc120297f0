#include "floe/cli/cat_files.h"

#include "floe/batch/value.h"
#include "floe/cli/command_line_io.h"
#include "floe/format/orc/batch_reader.h"
#include "floe/format/parquet/reader/batch_reader.h"

namespace floe::cli {
namespace {

constexpr int64_t kBatchRows = 4096;

template <typename Reader>
Status WriteRows(Reader& reader, const std::string& path, std::FILE* out) {
  std::string text;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, reader.Next());
    if (!batch) break;
    text.clear();
    AppendJsonLines(*batch, text);
    if (std::fwrite(text.data(), 1, text.size(), out) != text.size()) {
      return IOError("writing the rows of {} failed", path);
    }
  }
  return Ok();
}

}  // namespace

Status CatParquet(const std::string& path, std::FILE* out) {
  parquet::ReadOptions options;
  options.batch_rows = kBatchRows;
  FLOE_ASSIGN_OR_RETURN(auto reader, OpenParquetFile(path, options));
  return WriteRows(*reader, path, out);
}

Status CatOrc(const std::string& path, std::FILE* out) {
  auto input = CommandLineFileIO()->NewInputFile(path);
  if (!input) return std::unexpected(std::move(input.error().AddContext(path)));
  orc::ReadOptions options;
  options.batch_rows = kBatchRows;
  // Every digit the file holds: ORC timestamps are nanoseconds.
  options.file.timestamp_unit = TimeUnit::kNano;
  FLOE_ASSIGN_OR_RETURN(
      auto reader,
      orc::OrcBatchReader::Open(std::shared_ptr<io::InputFile>(std::move(*input)), options));
  return WriteRows(*reader, path, out);
}

}  // namespace floe::cli
