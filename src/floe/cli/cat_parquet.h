#pragma once

// `floe cat FILE.parquet`: every row of a Parquet file as a JSON line (the batch layer's format).

#include <cstdio>
#include <string>

#include "floe/util/error.h"

namespace floe::cli {

// Writes the rows of the Parquet file at path to out, one JSON object per line, a batch at a
// time. Fails with the reader's error (naming the file) on unreadable or unsupported input; rows
// of batches before the error have been written.
Status CatParquet(const std::string& path, std::FILE* out);

}  // namespace floe::cli
