#pragma once

// Adapts a floe::io::InputFile (any FileIO: local, memory, object stores) to the Parquet reader's
// RandomAccessSource, so that all Parquet reads go through the io layer. Fails when the file's
// size cannot be read.
//
// A file with a location of another scheme than a local one (s3://...) is remote: each GET costs
// a round trip, so its source fetches what WillRead announces ahead, on a shared pool of
// threads, in pieces of at most 8 MiB (ranges less than 256 KiB apart are fetched as one), and
// keeps the pieces of the last two announcements. Opening it announces the last 64 KiB and the
// first 4 bytes, where the footer and the magic are, so the footer costs one round trip.

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
