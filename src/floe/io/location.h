#pragma once

// Helpers for locations: the strings FileIO takes, either plain paths ("/warehouse/db/t") or URIs
// ("file:/warehouse/db/t", "file:///warehouse/db/t", "s3://bucket/db/t"). A location is split into
// a prefix ("s3://bucket", "file:", "file://", or "" for a plain path) and a path; the helpers work
// on the path and keep the prefix as written. Percent escapes are not decoded (Hadoop does not
// either).

#include <string>
#include <string_view>

#include "floe/util/error.h"

namespace floe::io {

// The scheme ("file", "s3") or "" for a plain path. "name:rest" counts as a scheme only when
// followed by "//" or when the scheme is "file", so a relative path with a colon stays a path.
std::string_view LocationScheme(std::string_view location);

// The local filesystem path a location names: "file:/a", "file:///a" and "file://localhost/a" give
// "/a"; plain paths are returned unchanged. kUnsupported for another scheme or a remote host,
// kInvalidArgument for an empty location.
Result<std::string> ToLocalPath(std::string_view location);

// A plain relative path made absolute against the working directory ("warehouse" ->
// "/home/u/warehouse"), normalized; absolute paths and locations with a scheme are returned
// normalized but otherwise unchanged. Locations floe writes into metadata and catalogs pass here
// once, so that a table reads the same from any working directory.
std::string AbsoluteLocation(std::string_view location);

// Collapses repeated '/', drops "." segments and resolves "x/.." pairs lexically, and drops a
// trailing '/' (but keeps a root "/"). The prefix is kept as written.
std::string NormalizeLocation(std::string_view location);

// folder + "/" + name with exactly one '/' between them; name alone when folder is empty.
std::string JoinLocation(std::string_view folder, std::string_view name);

// The folder holding location: "s3://b/t/m.json" -> "s3://b/t", "/a" -> "/", "s3://b/t" ->
// "s3://b/".
// "" when there is none ("/", "s3://b/", a relative name without '/'). Trailing '/' are ignored.
std::string ParentLocation(std::string_view location);

// The last component: "s3://b/t/m.json" -> "m.json"; "" for a root.
std::string FileName(std::string_view location);

}  // namespace floe::io
