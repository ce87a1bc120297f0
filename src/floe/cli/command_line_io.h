#pragma once

// Files named on the command line: local paths, file: URIs, or s3:// / s3a:// objects, whose
// store is configured by the AWS environment variables and files (AWS_ENDPOINT_URL, AWS_PROFILE,
// ~/.aws/...; see docs/s3.md). Tables in a catalog use the catalog's FileIO instead.

#include <memory>
#include <string>

#include "floe/format/parquet/reader/batch_reader.h"
#include "floe/io/file_io.h"

namespace floe::cli {

// One FileIO for the whole command, so that S3 connections are reused.
std::shared_ptr<io::FileIO> CommandLineFileIO();

// A Parquet file at any location CommandLineFileIO serves.
Result<std::unique_ptr<parquet::ParquetBatchReader>> OpenParquetFile(
    const std::string& location, parquet::ReadOptions options = {});

}  // namespace floe::cli
