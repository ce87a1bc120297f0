#pragma once

// `floe serve [--port 8181] [--host 127.0.0.1] [--warehouse DIR | --catalog k=v ...]
// [--credential id:secret ...]`: serves a floe catalog over the Iceberg REST protocol
// (catalog/rest/server/), so that any REST client (Spark, Trino, PyIceberg, ClickHouse, floe's
// own `catalog-type`='rest') shares its tables. Without --catalog it serves the embedded catalog
// `floe sql` uses (SQLite in <warehouse>/catalog.db, warehouse ./warehouse); with --catalog the
// catalog those properties make (as every command's --catalog), without a cache, so that commits
// by other processes are seen at once. The catalog's s3.* and client.* properties are handed to
// clients in every LoadTableResult's config.
//
// Prints "floe serve: catalog NAME at http://HOST:PORT" on stdout once it accepts connections
// (--port 0 picks a free port), logs one line per request on stderr unless --quiet, and stops on
// SIGTERM or SIGINT after the requests in flight. Errors (exit code 2): bad options, a catalog
// that cannot be opened, a port that cannot be bound.

namespace CLI {
class App;
}

namespace floe::cli {

void AddServeCommand(CLI::App& app, int& exit_code);

}  // namespace floe::cli
