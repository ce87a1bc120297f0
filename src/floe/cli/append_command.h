#pragma once

// `floe append TABLE FILE.parquet...`: writes the rows of Parquet files into an Iceberg table as
// new data files (through the table's writer stack: partitioning, rolling at the target file size,
// its file format and codec) and commits them as one append snapshot.
//
// TABLE is a table folder in the layout of Iceberg's hadoop catalog, <warehouse>/<db>/<table>, or
// with --catalog k=v options, `name.db.table` in the catalog those properties make. A table that
// does not exist is created from the first file's columns (with --partition-by and --property),
// unless --no-create is given.
//
// Errors (exit code 2, one line): unreadable files, columns that do not match the table, types
// without an Iceberg equivalent, commit conflicts that outlast the table's retries.

#include <cstdio>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace floe::cli {

struct AppendArgs {
  std::string table;
  std::vector<std::string> files;
  std::vector<std::string> catalog_properties;  // k=v
  std::vector<std::string> table_properties;    // k=v, applied when creating the table
  std::string partition_by;                     // "days(ts), bucket(16, id), category"
  bool create = true;
};

int RunAppend(const AppendArgs& args, std::FILE* out, std::FILE* err);
void AddAppendCommand(CLI::App& app, int& exit_code);

}  // namespace floe::cli
