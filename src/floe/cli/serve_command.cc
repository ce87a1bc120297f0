#include "floe/cli/serve_command.h"

#include <fmt/format.h>
#include <signal.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "floe/catalog/caching_catalog.h"
#include "floe/catalog/rest/server/rest_server.h"
#include "floe/cli/commands.h"
#include "floe/cli/table_ref.h"
#include "floe/io/location.h"
#include "floe/io/resolving_file_io.h"
#include "floe/sql/embedded_catalog.h"
#include "floe/sql/session.h"

namespace floe::cli {
namespace {

struct ServeArgs {
  std::string host = "127.0.0.1";
  int port = 8181;
  std::string warehouse = "warehouse";
  std::string name;
  std::vector<std::string> catalog_properties;
  std::vector<std::string> credentials;
  int threads = catalog::rest::ServerOptions{}.threads;
  bool quiet = false;
};

Result<StringMap> CatalogProperties(const ServeArgs& args, std::FILE* err) {
  if (!args.catalog_properties.empty()) {
    return ParseKeyValues(args.catalog_properties, "--catalog");
  }
  FLOE_ASSIGN_OR_RETURN(sql::EmbeddedCatalogPlace place,
                        sql::PrepareEmbeddedCatalog(args.warehouse));
  for (const std::string& note : place.notes) fmt::print(err, "{}\n", note);
  return place.properties;
}

int RunServe(const ServeArgs& args, std::FILE* out, std::FILE* err) {
  for (const std::string& credential : args.credentials) {
    if (credential.find(':') == std::string::npos) {
      return ReportBadInput(
          err, "serve",
          Error(ErrorKind::kInvalidArgument,
                "--credential wants client_id:client_secret, got '" + credential + "'"));
    }
  }
  auto properties = CatalogProperties(args, err);
  if (!properties) return ReportBadInput(err, "serve", properties.error());
  // Other processes may commit to the catalog too: the server must see their commits at once.
  (*properties)[std::string(catalog::kCacheEnabledProperty)] = "false";
  std::string name = !args.name.empty() ? args.name : std::string(sql::kEmbeddedCatalog);
  auto catalog = catalog::CreateCatalog(name, *properties);
  if (!catalog) return ReportBadInput(err, "serve", catalog.error());

  std::string warehouse;
  if (auto it = properties->find("warehouse"); it != properties->end()) {
    warehouse = io::AbsoluteLocation(it->second);
  }
  StringMap table_config;
  for (const auto& [key, value] : *properties) {
    // How to reach the files: clients need it as much as the server does.
    if (io::IsStorageProperty(key)) table_config[key] = value;
  }
  auto service = std::make_shared<const catalog::rest::RestService>(
      std::move(*catalog), std::move(warehouse), std::move(table_config));

  // The signals are taken by sigwait below, never by a handler, in every thread the server starts.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  catalog::rest::ServerOptions options;
  options.host = args.host;
  options.port = args.port;
  options.threads = args.threads;
  options.credentials = args.credentials;
  options.log = args.quiet ? nullptr : err;
  auto server = catalog::rest::RestServer::Start(service, options);
  if (!server) return ReportBadInput(err, "serve", server.error());
  fmt::print(out, "floe serve: catalog {} at {}\n", name, (*server)->uri());
  std::fflush(out);

  int signal = 0;
  sigwait(&stop_signals, &signal);
  fmt::print(err, "floe serve: {} received, stopping\n", signal == SIGTERM ? "SIGTERM" : "SIGINT");
  (*server)->Stop();
  fmt::print(err, "floe serve: stopped\n");
  return kExitOk;
}

}  // namespace

void AddServeCommand(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ServeArgs>();
  auto* command = app.add_subcommand(
      "serve", "Serve a catalog over the Iceberg REST protocol (the embedded one by default)");
  command->add_option("--host", args->host, "Address to listen on; default 127.0.0.1");
  command->add_option("--port", args->port, "Port to listen on (0: any free one); default 8181");
  auto* warehouse = command->add_option(
      "--warehouse", args->warehouse,
      "Folder of the embedded catalog 'floe' (SQLite), as `floe sql`; default ./warehouse");
  auto* catalog = command->add_option("--catalog", args->catalog_properties,
                                      "Property k=v of the catalog to serve instead (repeatable)");
  warehouse->excludes(catalog);
  command->add_option("--name", args->name, "Name of the catalog given by --catalog; default floe");
  command->add_option("--credential", args->credentials,
                      "client_id:client_secret that may obtain OAuth2 tokens; with any, every "
                      "request needs a token (repeatable)");
  command->add_option("--threads", args->threads,
                      "Worker threads, one per open connection; default 64");
  command->add_flag("--quiet", args->quiet, "No request log");
  command->callback([args, &exit_code] { exit_code = RunServe(*args, stdout, stderr); });
}

}  // namespace floe::cli
