#pragma once

// `floe scan TABLE`: the rows of an Iceberg table as JSON lines, and `floe inspect table TABLE`:
// what a table holds. TABLE is a table folder (its current metadata file is found as file-system
// tables name them) or a metadata file, or `catalog.db.table` with --catalog k=v properties
// (cli/table_ref.h). Tables copied from elsewhere keep the locations they were
// written at; --location-map OLD=NEW reads them where they are now (without it, the table's
// recorded location is mapped to the folder it was found in when the two differ). --filter is a
// SQL condition on the table's columns (sql/scalar/table_filter.h), pushed whole into the scan.

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace floe::cli {

struct ScanArgs {
  std::string table;
  std::optional<int64_t> snapshot_id;
  std::optional<std::string> as_of;  // ISO-8601 timestamp or milliseconds since the epoch
  std::optional<std::string> ref;
  std::vector<std::string> columns;
  std::optional<std::string> filter;
  std::optional<int64_t> limit;
  std::optional<std::string> location_map;      // OLD=NEW
  std::vector<std::string> catalog_properties;  // k=v; TABLE is then catalog.db.table
};

// Writes the rows to out; on bad input writes one line to err and returns kExitBadInput.
int RunScan(const ScanArgs& args, std::FILE* out, std::FILE* err);
int RunInspectTable(const std::string& table, const std::optional<std::string>& location_map,
                    const std::vector<std::string>& catalog_properties, std::FILE* out,
                    std::FILE* err);

void AddScanCommand(CLI::App& app, int& exit_code);
void AddInspectTable(CLI::App& inspect, int& exit_code);

}  // namespace floe::cli
