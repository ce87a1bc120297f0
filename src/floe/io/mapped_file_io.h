#pragma once

// A FileIO that rewrites every location before passing it to another FileIO: the base of reading
// tables whose metadata names files elsewhere than where they are now (a table copied or moved,
// table/scan/location_mapping.h; a table written with relative locations, below).

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "floe/io/file_io.h"

namespace floe::io {

using LocationMap = std::function<std::string(std::string_view location)>;

// Every location read or written through the result is map(location) in base.
std::shared_ptr<FileIO> MapFileLocations(std::shared_ptr<FileIO> base, LocationMap map);

// For tables written by floe before it made locations absolute: their metadata, manifests and
// catalog rows may hold paths relative to the working directory of the process that wrote them,
// such as "warehouse/default/t/metadata/00000-....metadata.json" for a warehouse given as
// "warehouse". Such a path is found again under `warehouse` (absolute): its leading components
// that repeat the warehouse's last ones ("warehouse", or "data/wh" for /x/data/wh) are replaced
// by the warehouse; other relative paths and absolute ones pass unchanged. `on_first_use` is
// called once, with the first relative path mapped, so that the caller can warn.
std::shared_ptr<FileIO> ResolveRelativeToWarehouse(
    std::shared_ptr<FileIO> base, std::string warehouse,
    std::function<void(std::string_view relative, std::string_view resolved)> on_first_use);

}  // namespace floe::io
