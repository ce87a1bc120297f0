#pragma once

// The independent engines in ../shared/peers (ClickHouse `ch`, DuckDB `duck`, avsc `avro-cat`,
// icebird `icebird-read`), for cross-checks. `../shared/peers/setup` installs them; tests that need
// one skip with a reason when it is absent.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "floe/util/error.h"
#include "floe/util/json.h"

namespace floe::testing {

// $FLOE_PEERS_HOME, or ~/.cache/floe-peers where setup installs the engines.
std::filesystem::path PeersHome();

// Whether the npm package behind a peer is installed (e.g. "avsc", "duckdb", "chdb").
bool PeerInstalled(std::string_view package);

// Runs ../shared/peers/<tool> with the arguments (each passed as one word) and returns what it
// printed on stdout; an error with its stderr when it exits non-zero.
Result<std::string> RunPeer(std::string_view tool, const std::vector<std::string>& args);

// The objects of a peer's JSON-lines output (ClickHouse JSONEachRow, DuckDB's), blank lines
// skipped; an error naming the line that is not JSON.
Result<std::vector<Json>> ParseJsonLines(std::string_view out);

}  // namespace floe::testing
