#pragma once

// Renders one PLAIN-encoded value (as statistics, column indexes and dictionaries store them) as
// readable text, using the leaf's physical and logical (or converted) type: integers signed or
// unsigned, decimals scaled, dates and timestamps in ISO-8601, strings quoted, other bytes in hex.
// Malformed values (wrong length for the type) are shown as hex with a note, never an error: this
// is for people reading metadata.

#include <string>
#include <string_view>

namespace floe::parquet {

struct SchemaNode;

std::string FormatPlainValue(const SchemaNode& leaf, std::string_view bytes);

}  // namespace floe::parquet
