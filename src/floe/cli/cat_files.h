#pragma once

// `floe cat FILE.parquet` and `floe cat FILE.orc`: every row of a Parquet or ORC file as a JSON
// line (the batch layer's format).

#include <cstdio>
#include <string>

#include "floe/util/error.h"

namespace floe::cli {

// Write the rows of the file at path to out, one JSON object per line, a batch at a time. Fail
// with the reader's error (naming the file) on unreadable or unsupported input; rows of batches
// before the error have been written.
Status CatParquet(const std::string& path, std::FILE* out);
Status CatOrc(const std::string& path, std::FILE* out);

}  // namespace floe::cli
