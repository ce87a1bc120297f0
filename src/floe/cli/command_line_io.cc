#include "floe/cli/command_line_io.h"

#include "floe/io/resolving_file_io.h"

namespace floe::cli {

std::shared_ptr<io::FileIO> CommandLineFileIO() {
  static const std::shared_ptr<io::FileIO> io = io::MakeFileIO();
  return io;
}

Result<std::unique_ptr<parquet::ParquetBatchReader>> OpenParquetFile(const std::string& location,
                                                                     parquet::ReadOptions options) {
  auto input = CommandLineFileIO()->NewInputFile(location);
  if (!input) return std::unexpected(std::move(input.error().AddContext(location)));
  return parquet::ParquetBatchReader::Open(std::shared_ptr<io::InputFile>(std::move(*input)),
                                           std::move(options));
}

}  // namespace floe::cli
