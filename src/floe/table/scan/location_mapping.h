#pragma once

// Reading a table that was copied or moved: its metadata, manifest lists and manifests still name
// files under the location where it was written (often an absolute path on another machine). A
// LocationMapping rewrites every location that starts with the recorded prefix to the same path
// under the table's current place; the files themselves are never edited.
//
// MapLocations wraps a FileIO so that every location read or written through it is rewritten
// first; a TableScan given a mapping also rewrites the paths of the data and delete files in the
// tasks it plans, so a task reader opens them with any FileIO. Locations outside the prefix pass
// through unchanged.

#include <memory>
#include <string>
#include <string_view>

#include "floe/io/file_io.h"

namespace floe {
class TableMetadata;
}

namespace floe::table {

struct LocationMapping {
  std::string from;  // the recorded prefix, e.g. the metadata's `location`
  std::string to;    // where that prefix lies now

  // Maps the table's recorded location (metadata.location()) to table_dir. Leading "./" and
  // trailing slashes are ignored so that "./a/" and "a" map alike.
  static LocationMapping ForTable(const TableMetadata& metadata, std::string_view table_dir);

  bool empty() const { return from.empty(); }
  // location with the prefix `from` replaced by `to`; unchanged when it does not start with
  // `from` at a path boundary (so "/t/a" does not map "/t/ab/x").
  std::string Apply(std::string_view location) const;
};

// A FileIO that applies mapping to every location before passing it to base.
std::shared_ptr<io::FileIO> MapLocations(std::shared_ptr<io::FileIO> base, LocationMapping mapping);

}  // namespace floe::table
