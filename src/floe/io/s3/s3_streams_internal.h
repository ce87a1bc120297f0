#pragma once

// The InputFile, OutputFile and FileWriter of S3FileIO (s3_file_io.h says how they behave).

#include <memory>
#include <string>

#include "floe/io/file_io.h"
#include "floe/io/s3/s3_file_io.h"

namespace floe {
class ThreadPool;
}

namespace floe::io {

class S3Client;

std::unique_ptr<InputFile> MakeS3InputFile(std::shared_ptr<S3Client> client, S3Path path,
                                           std::string location, int64_t size);

std::unique_ptr<OutputFile> MakeS3OutputFile(std::shared_ptr<S3Client> client,
                                             std::shared_ptr<ThreadPool> uploads, S3Path path,
                                             std::string location);

}  // namespace floe::io
