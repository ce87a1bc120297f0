// `floe serve`'s side of issue 23's performance goals, in one process on loopback: LoadTable of a
// table with SNAPSHOTS snapshots through RestServer, by CLIENTS threads for SECONDS (latency
// percentiles and requests per second, one HTTP connection per thread, kept alive), then COMMITS
// property commits through the REST client and the same number straight to the sql catalog (both
// on SQLite in FOLDER), as commits per second.
//
//   floe_bench_rest_catalog FOLDER [SNAPSHOTS=1000] [CLIENTS=4] [SECONDS=5] [COMMITS=200]

#include "floe/catalog/rest/rest_catalog.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

#include "floe/catalog/rest/server/rest_server.h"
#include "floe/catalog/sql/sql_catalog.h"
#include "floe/io/http/http_client.h"
#include "floe/spec/schema.h"

namespace floe::catalog {
namespace {

using Clock = std::chrono::steady_clock;

const TableIdentifier kTable{Namespace{{"db"}}, "t"};

// Snapshots that only the metadata holds (LoadTable never reads manifest lists).
Status AddSnapshots(Catalog& catalog, int count) {
  for (int i = 1; i <= count; ++i) {
    FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(kTable));
    auto snapshot = std::make_shared<Snapshot>();
    snapshot->snapshot_id = i;
    if (i > 1) snapshot->parent_snapshot_id = i - 1;
    snapshot->sequence_number = table.metadata->last_sequence_number() + 1;
    snapshot->timestamp_ms = table.metadata->last_updated_ms() + 1;
    snapshot->manifest_list =
        fmt::format("{}/metadata/snap-{}.avro", table.metadata->location(), i);
    snapshot->summary = {{"operation", "append"}, {"added-data-files", "1"}};
    SnapshotRef ref;
    ref.snapshot_id = i;
    TableCommit commit{{}, {AddSnapshot{snapshot}, SetSnapshotRef{"main", ref}}};
    FLOE_RETURN_IF_ERROR(catalog.CommitTable(kTable, commit));
  }
  return {};
}

double Percentile(std::vector<double>& values, double p) {
  if (values.empty()) return 0;
  size_t index = std::min(values.size() - 1, static_cast<size_t>(p * values.size()));
  std::nth_element(values.begin(), values.begin() + index, values.end());
  return values[index];
}

// CPU seconds of the whole process (client and server threads alike), user and system.
double ProcessCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

struct CommitRate {
  double per_second = 0;
  double cpu_ms_per_commit = 0;  // what a commit costs whatever else the machine runs
};

Result<CommitRate> CommitsPerSecond(Catalog& catalog, int commits) {
  auto start = Clock::now();
  double cpu_start = ProcessCpuSeconds();
  for (int i = 0; i < commits; ++i) {
    TableCommit commit{{}, {SetProperties{{{"bench", std::to_string(i)}}}}};
    FLOE_RETURN_IF_ERROR(catalog.CommitTable(kTable, commit));
  }
  std::chrono::duration<double> took = Clock::now() - start;
  return CommitRate{commits / took.count(), (ProcessCpuSeconds() - cpu_start) * 1000 / commits};
}

Status Run(const std::string& folder, int snapshots, int clients, int seconds, int commits) {
  StringMap properties = {{"warehouse", folder + "/warehouse"},
                          {"uri", "jdbc:sqlite:" + folder + "/catalog.db"}};
  FLOE_ASSIGN_OR_RETURN(auto sql, CreateSqlCatalog("bench", properties));
  FLOE_RETURN_IF_ERROR(sql->CreateNamespace(kTable.ns, {}));
  CreateTableRequest request;
  request.schema = std::make_shared<Schema>(std::vector<NestedField>{
      {1, "id", types::Long(), true}, {2, "data", types::String(), false}});
  FLOE_RETURN_IF_ERROR(sql->CreateTable(kTable, request));
  FLOE_RETURN_IF_ERROR(AddSnapshots(*sql, snapshots));

  auto service = std::make_shared<const rest::RestService>(sql, folder + "/warehouse", StringMap{});
  FLOE_ASSIGN_OR_RETURN(auto server,
                        rest::RestServer::Start(service, {.port = 0, .threads = clients + 2}));
  const std::string url = server->uri() + "/v1/namespaces/db/tables/t";

  std::atomic<bool> stop = false;
  std::vector<std::vector<double>> latencies(clients);
  std::vector<size_t> bytes(clients);
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      io::http::Client http({.max_connections = 1, .max_attempts = 1});
      io::http::Request load;
      load.url = url;
      while (!stop) {
        auto start = Clock::now();
        auto response = http.Send(load);
        std::chrono::duration<double, std::milli> took = Clock::now() - start;
        if (!response || response->status != 200) continue;
        latencies[c].push_back(took.count());
        bytes[c] = response->body.size();
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::seconds(seconds));
  stop = true;
  for (auto& thread : threads) thread.join();
  std::vector<double> all;
  for (const auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
  fmt::print(
      "LoadTable, {} snapshots ({} bytes), {} clients, {} s: {:.0f} requests/s, "
      "p50 {:.2f} ms, p99 {:.2f} ms\n",
      snapshots, bytes[0], clients, seconds, all.size() / double(seconds), Percentile(all, 0.50),
      Percentile(all, 0.99));

  FLOE_ASSIGN_OR_RETURN(auto client, CreateRestCatalog("client", {{"uri", server->uri()}}));
  FLOE_ASSIGN_OR_RETURN(CommitRate through_server, CommitsPerSecond(*client, commits));
  FLOE_ASSIGN_OR_RETURN(CommitRate direct, CommitsPerSecond(*sql, commits));
  fmt::print(
      "commits/s: {:.1f} through the server, {:.1f} to the sql catalog directly "
      "(ratio {:.2f}); CPU per commit {:.2f} ms and {:.2f} ms (ratio {:.2f})\n",
      through_server.per_second, direct.per_second, direct.per_second / through_server.per_second,
      through_server.cpu_ms_per_commit, direct.cpu_ms_per_commit,
      through_server.cpu_ms_per_commit / direct.cpu_ms_per_commit);
  return {};
}

}  // namespace
}  // namespace floe::catalog

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s FOLDER [SNAPSHOTS=1000] [CLIENTS=4] [SECONDS=5] [COMMITS=200]\n",
                 argv[0]);
    return 2;
  }
  auto arg = [&](int i, int fallback) { return argc > i ? std::atoi(argv[i]) : fallback; };
  floe::Status done = floe::catalog::Run(argv[1], arg(2, 1000), arg(3, 4), arg(4, 5), arg(5, 200));
  if (!done) {
    std::fprintf(stderr, "%s\n", done.error().ToString().c_str());
    return 1;
  }
  return 0;
}
