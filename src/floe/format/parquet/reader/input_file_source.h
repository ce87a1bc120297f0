#pragma once

// Adapts a floe::io::InputFile (any FileIO: local, memory, object stores) to the Parquet reader's
// RandomAccessSource, so that all Parquet reads go through the io layer. Fails when the file's
// size cannot be read.

#include <memory>

#include "floe/util/error.h"

namespace floe::io {
class InputFile;
}

namespace floe::parquet {

class RandomAccessSource;

Result<std::unique_ptr<RandomAccessSource>> MakeInputFileSource(
    std::shared_ptr<io::InputFile> file);

}  // namespace floe::parquet
