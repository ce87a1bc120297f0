// Runs the SQL script tests in src/floe/sql/scripts/*.test, one gtest per file, each file in its
// own session whose embedded catalog lives in a fresh folder. The format, close to sqllogictest:
//
//   # a comment
//   statement ok
//   CREATE TABLE t (id INT, data STRING);
//
//   statement error does not exist          <- a piece of the expected error message
//   DROP TABLE nope;
//
//   query rowsort                           <- options: rowsort, changelog, final, columns,
//                                              first N, jsonl
//   SELECT id, data FROM t;
//   ----
//   1 | a
//   2 | <NULL>
//
//   let snapshot                            <- the single value of a one-row, one-column query
//   SELECT snapshot_id FROM t$snapshots;       becomes ${snapshot} in later records
//
// A record ends at a blank line. Statements may span lines. Rows are the cells as the client
// shows them (result_format.h) joined by " | "; `changelog` puts the row kind first ("+I | 1 | a"),
// `final` applies a changelog's rows in order (+I/+U add a row, -U/-D remove an equal one) and
// gives the rows that remain, as Flink's table result mode shows them at the end,
// `columns` makes the first expected line the column names, `rowsort` compares sorted rows,
// `jsonl` makes each row the client's jsonl line (JsonLine),
// `first N` reads N rows and then cancels the query (an unbounded streaming read).
// ${TMP} in a statement is the file's temporary folder, ${SHARED} the shared folder, ${KAFKA}
// the bootstrap address of the test Kafka cluster (testing/kafka_cluster.h), into which
//
//   produce events 2                        <- topic, partition
//   {"id": 1}                                  one record a line, produced by kcat
//
// writes (`produce events 2 key=| header=h=v`: each line is key|value, every record gets the
// header h=v; an empty key or value is null); a file using either skips when no cluster can run.
// `kafkajs` produces with kafkajs instead, and with it `avro=SCHEMA` (`key-avro=SCHEMA`), an Avro
// schema's JSON without spaces, makes each value (key) line a JSON datum of it, produced as its
// plain Avro binary encoding by avsc.
//
// ${LAKE} is a folder for warehouses and ${LAKE_OPTIONS} what a catalog there needs after its
// other options (", 's3.endpoint' = ..."); ${LAKE_CATALOG} is the options of a shared catalog
// whose warehouse is ${LAKE}/hive ("'catalog-type' = 'sql', ..."). A file using ${LAKE} runs
// twice: on the local disk (Scripts/...) and with the lake in an S3 bucket of the test server
// (ScriptsOnS3/..., skipped without one); one using ${LAKE_CATALOG} a third time, with that
// catalog a REST catalog served by floe's server in this process over the same SQL catalog
// (ScriptsOnRestS3/...), which vends the bucket's settings in LoadTable's config. Its records
//
//   clickhouse rowsort hive/default/sample   <- a table's folder under ${LAKE}
//   SELECT id, data FROM {table}              {table}: ClickHouse's reader of that table
//   ----
//   1 | a
//
// check what ClickHouse reads from the same files (skipped, with a note, without ClickHouse):
// through icebergLocal or icebergS3, and on REST through its DataLakeCatalog of the served
// catalog (a table of hive/<db>/<table> being `<db>.<table>` there).

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "floe/catalog/rest/server/rest_test_support.h"
#include "floe/io/s3/s3_client.h"
#include "floe/io/s3/s3_test_support.h"
#include "floe/sql/scalar/result_format.h"
#include "floe/sql/session.h"
#include "floe/sql/syntax/parser.h"
#include "floe/testing/kafka_cluster.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/strings.h"

namespace floe::sql {
namespace {

const std::filesystem::path kScriptDir = "src/floe/sql/scripts";

struct Record {
  int line = 0;
  std::string kind;  // "statement", "query" or "let"
  std::vector<std::string> options;
  std::string sql;
  std::vector<std::string> expected;
};

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

std::string Replace(std::string text, std::string_view from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

std::vector<Record> ReadRecords(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<Record> records;
  std::string line;
  int number = 0;
  Record* current = nullptr;
  bool in_expected = false;
  while (std::getline(in, line)) {
    ++number;
    if (current == nullptr) {
      if (line.empty() || line.front() == '#') continue;
      std::vector<std::string> words = Split(line, ' ');
      records.push_back(Record{.line = number, .kind = words[0]});
      current = &records.back();
      if (current->kind == "statement" && words.size() > 1) {
        current->options.push_back(words[1]);
        if (words[1] == "error") {
          std::string message = line.substr(line.find("error") + 5);
          current->expected.push_back(std::string(TrimWhitespace(message)));
        }
      } else {
        current->options.assign(words.begin() + 1, words.end());
      }
      in_expected = false;
    } else if (TrimWhitespace(line).empty()) {
      current = nullptr;
    } else if (line == "----") {
      in_expected = true;
    } else if (in_expected) {
      current->expected.push_back(line);
    } else {
      current->sql += line + "\n";
    }
  }
  return records;
}

bool Has(const Record& record, std::string_view option) {
  return std::find(record.options.begin(), record.options.end(), option) != record.options.end();
}

// The number after option `first`, or -1 for every row.
int64_t FirstRows(const Record& record) {
  auto at = std::find(record.options.begin(), record.options.end(), "first");
  if (at == record.options.end() || at + 1 == record.options.end()) return -1;
  return std::stoll(*(at + 1));
}

// The rows a changelog leaves; a retraction of a row that is not there is kept as an error line.
std::vector<std::string> FinalRows(const std::vector<std::pair<RowKind, std::string>>& changes) {
  std::vector<std::string> rows;
  for (const auto& [kind, row] : changes) {
    if (kind == RowKind::kInsert || kind == RowKind::kUpdateAfter) {
      rows.push_back(row);
      continue;
    }
    auto found = std::find(rows.begin(), rows.end(), row);
    if (found == rows.end()) {
      rows.push_back(fmt::format("{} of a row not there: {}", RowKindSymbol(kind), row));
    } else {
      rows.erase(found);
    }
  }
  return rows;
}

Result<std::vector<std::string>> ResultLines(StatementResult& result, bool changelog, bool columns,
                                             int64_t first = -1, bool jsonl = false,
                                             bool final = false) {
  std::vector<std::string> lines;
  if (result.kind != StatementResult::Kind::kRows) {
    if (!result.message.empty()) lines.push_back(result.message);
    return lines;
  }
  if (columns) {
    std::string header;
    for (const Field& field : result.schema->fields()) {
      header += (header.empty() ? "" : " | ") + field.name;
    }
    lines.push_back(header);
  }
  int64_t received = 0;
  std::vector<std::pair<RowKind, std::string>> changes;
  while (first < 0 || received < first) {
    FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, result.rows->Next());
    if (!batch.has_value()) break;
    for (int64_t row = 0; row < batch->num_rows() && (first < 0 || received < first); ++row) {
      ++received;
      std::string line;
      if (changelog) line = std::string(RowKindSymbol(batch->row_kind(row)));
      if (jsonl) {
        lines.push_back(JsonLine(*result.schema, *batch, row, changelog));
        continue;
      }
      for (int c = 0; c < batch->num_columns(); ++c) {
        if (!line.empty() || c > 0) line += " | ";
        line += FormatCell(batch->column(c), row, *result.schema->field(c).type);
      }
      if (final) {
        changes.emplace_back(batch->row_kind(row), std::move(line));
        continue;
      }
      lines.push_back(std::move(line));
    }
  }
  if (first >= 0) result.rows->Cancel();
  for (std::string& row : FinalRows(changes)) lines.push_back(std::move(row));
  return lines;
}

// Where a script's lake is.
enum class Place { kLocal, kS3, kRestS3 };

struct Script {
  std::string name;
  Place place = Place::kLocal;
};

void PrintTo(const Script& script, std::ostream* out) { *out << script.name; }

// Where ${LAKE} is, and how ClickHouse reads a table there.
struct Lake {
  std::string location;
  std::string catalog_options;
  std::string s3_url;    // http://endpoint/bucket/lake on S3, else empty
  std::string rest_uri;  // the served catalog's (warehouse location/hive), on REST, else empty

  // The query with {table} replaced by ClickHouse's reader of the table in folder, and what that
  // reader needs first.
  std::string ClickHouseQuery(const std::string& query, const std::string& folder) const {
    if (!rest_uri.empty() && folder.starts_with("hive/")) {
      std::string name = folder.substr(5);
      std::replace(name.begin(), name.end(), '/', '.');
      return fmt::format(
          "SET allow_experimental_database_iceberg = 1; CREATE DATABASE lake ENGINE = "
          "DataLakeCatalog('{}/v1') SETTINGS catalog_type = 'rest', warehouse = '{}'; {}",
          rest_uri, location + "/hive", Replace(query, "{table}", "lake.`" + name + "`"));
    }
    std::string table =
        s3_url.empty() ? "icebergLocal('" + location + "/" + folder + "')"
                       : "icebergS3('" + s3_url + "/" + folder + "/', 'test-key', 'test-secret')";
    return Replace(query, "{table}", table);
  }
};

// ClickHouse's rows of query, its tab-separated cells joined by " | " as the records write them.
Result<std::vector<std::string>> ClickHouseLines(const std::string& query) {
  FLOE_ASSIGN_OR_RETURN(std::string out, testing::RunPeer("ch", {query + " FORMAT TSV"}));
  std::vector<std::string> lines;
  for (std::string line : Split(out, '\n')) lines.push_back(Replace(line, "\t", " | "));
  return lines;
}

class ScriptTest : public ::testing::TestWithParam<Script> {};

TEST_P(ScriptTest, Runs) {
  std::filesystem::path path = kScriptDir / (GetParam().name + ".test");
  testing::TempDir dir;
  Session session({.embedded_warehouse = (dir.path() / "warehouse").string(),
                   .checkpoint_root = (dir.path() / "checkpoints").string()});
  ASSERT_TRUE(session.Open().has_value());
  std::vector<std::pair<std::string, std::string>> variables = {
      {"${TMP}", dir.path().string()}, {"${SHARED}", testing::SharedDir().string()}};
  std::vector<Record> records = ReadRecords(path);
  Lake lake{.location = (dir.path() / "lake").string()};
  // Options as a WITH clause lists them: 'k' = 'v', ...
  auto options = [](const StringMap& map) {
    std::string out;
    for (const auto& [key, value] : map) {
      out += fmt::format("{}'{}' = '{}'", out.empty() ? "" : ", ", key, value);
    }
    return out;
  };
  StringMap storage;  // how the lake's files are reached
  if (GetParam().place != Place::kLocal) {
    FLOE_REQUIRE_S3_SERVER();
    io::S3Client client(io::TestS3Options());
    FLOE_ASSERT_OK_AND_ASSIGN(std::string bucket, io::NewTestBucket(client, "script"));
    const std::string endpoint = floe::testing::S3Server::Get().endpoint();
    storage = {{"s3.endpoint", endpoint},
               {"s3.path-style-access", "true"},
               {"s3.access-key-id", "test-key"},
               {"s3.secret-access-key", "test-secret"}};
    lake.location = "s3://" + bucket + "/lake";
    lake.catalog_options = ", " + options(storage);
    lake.s3_url = endpoint + "/" + bucket + "/lake";
  }
  StringMap shared = storage;
  shared["catalog-type"] = "sql";
  shared["uri"] = "jdbc:sqlite:" + (dir.path() / "hive.db").string();
  shared["warehouse"] = lake.location + "/hive";
  std::string shared_catalog = options(shared);
  std::unique_ptr<catalog::rest::RestServer> server;
  if (GetParam().place == Place::kRestS3) {
    // The served catalog is the SQL one the other runs use directly; clients reach the bucket
    // only through the settings LoadTable vends.
    FLOE_ASSERT_OK_AND_ASSIGN(server, catalog::rest::testing::ServeCatalog(shared, storage));
    lake.rest_uri = server->uri();
    shared_catalog = options({{"catalog-type", "rest"}, {"uri", lake.rest_uri}});
  }
  variables.emplace_back("${LAKE_CATALOG}", shared_catalog);
  variables.emplace_back("${LAKE_OPTIONS}", lake.catalog_options);
  variables.emplace_back("${LAKE}", lake.location);
  bool kafka = std::ranges::any_of(records, [](const Record& record) {
    return record.kind == "produce" || record.sql.find("${KAFKA}") != std::string::npos;
  });
  if (kafka) {
    FLOE_REQUIRE_KAFKA();
    variables.emplace_back("${KAFKA}", testing::KafkaCluster::Get().bootstrap());
  }
  for (Record& record : records) {
    std::string where = fmt::format("{}:{}", path.string(), record.line);
    std::string sql = record.sql;
    for (const auto& [name, value] : variables) sql = Replace(sql, name, value);
    if (record.kind == "produce") {
      ASSERT_GE(record.options.size(), 2u) << where << ": produce takes a topic and a partition";
      testing::KafkaCluster::ProduceOptions produce;
      for (size_t i = 2; i < record.options.size(); ++i) {
        const std::string& option = record.options[i];
        if (option.starts_with("key=") && option.size() == 5) {
          produce.key_delimiter = option[4];
        } else if (option.starts_with("header=")) {
          produce.headers.push_back(option.substr(7));
        } else if (option == "kafkajs") {
          produce.client = testing::KafkaCluster::Client::kKafkaJs;
        } else if (option.starts_with("avro=")) {
          produce.avro_schema = option.substr(5);
        } else if (option.starts_with("key-avro=")) {
          produce.key_avro_schema = option.substr(9);
        } else {
          FAIL() << where << ": unknown produce option " << option;
        }
      }
      std::vector<std::string> values = Split(sql, '\n');
      Status produced = testing::KafkaCluster::Get().Produce(
          record.options[0], std::stoi(record.options[1]), values, produce);
      ASSERT_TRUE(produced.has_value()) << where << ": " << produced.error().message();
      continue;
    }
    if (record.kind == "clickhouse") {
      if (!testing::PeerInstalled("chdb")) {
        std::cerr << where << ": not checked, ClickHouse (chdb) is not installed\n";
        continue;
      }
      ASSERT_FALSE(record.options.empty()) << where << ": clickhouse takes a table folder";
      std::string query = lake.ClickHouseQuery(sql, record.options.back());
      auto lines = ClickHouseLines(query);
      ASSERT_TRUE(lines.has_value()) << where << ": " << lines.error().message();
      std::vector<std::string> expected = record.expected;
      if (Has(record, "rowsort")) {
        std::sort(lines->begin(), lines->end());
        std::sort(expected.begin(), expected.end());
      }
      EXPECT_EQ(*lines, expected) << where << ": ClickHouse read " << query;
      continue;
    }
    auto statement = ParseStatement(sql);
    auto result = statement.has_value()
                      ? session.Execute(*statement)
                      : Result<StatementResult>(std::unexpected(statement.error()));
    if (record.kind == "statement" && Has(record, "error")) {
      // A query's job fails while its rows are read (a bad snapshot id of a streaming read).
      if (result.has_value() && result->kind == StatementResult::Kind::kRows) {
        auto lines = ResultLines(*result, false, false);
        if (!lines.has_value()) result = std::unexpected(lines.error());
      }
      ASSERT_FALSE(result.has_value()) << where << ": expected an error, the statement succeeded";
      EXPECT_NE(result.error().message().find(record.expected.front()), std::string::npos)
          << where << ": expected an error with '" << record.expected.front() << "', got '"
          << result.error().message() << "'";
      continue;
    }
    ASSERT_TRUE(result.has_value()) << where << ": " << result.error().message();
    if (record.kind == "statement") {
      if (result->kind == StatementResult::Kind::kRows) {
        ASSERT_TRUE(ResultLines(*result, false, false).has_value()) << where;
      }
      continue;
    }
    if (record.kind == "let") {
      ASSERT_EQ(record.options.size(), 1u) << where << ": let takes one name";
      auto lines = ResultLines(*result, false, false);
      ASSERT_TRUE(lines.has_value()) << where << ": " << lines.error().message();
      ASSERT_EQ(lines->size(), 1u) << where << ": let needs a one-row result";
      ASSERT_EQ(lines->front().find(" | "), std::string::npos) << where << ": one column";
      variables.emplace_back("${" + record.options[0] + "}", lines->front());
      continue;
    }
    ASSERT_EQ(record.kind, "query") << where << ": unknown record kind";
    auto lines = ResultLines(*result, Has(record, "changelog"), Has(record, "columns"),
                             FirstRows(record), Has(record, "jsonl"), Has(record, "final"));
    ASSERT_TRUE(lines.has_value()) << where << ": " << lines.error().message();
    std::vector<std::string> expected = record.expected;
    if (Has(record, "rowsort")) {
      auto first = lines->begin() + (Has(record, "columns") ? 1 : 0);
      std::sort(first, lines->end());
      std::sort(expected.begin() + (Has(record, "columns") ? 1 : 0), expected.end());
    }
    EXPECT_EQ(*lines, expected) << where;
  }
}

// The scripts that run at place: every one locally, those using ${LAKE} on S3, those using
// ${LAKE_CATALOG} on REST.
std::vector<Script> Scripts(Place place) {
  std::vector<Script> scripts;
  for (const auto& entry : std::filesystem::directory_iterator(kScriptDir)) {
    if (entry.path().extension() != ".test") continue;
    std::ifstream in(entry.path());
    std::string text(std::istreambuf_iterator<char>(in), {});
    if (place == Place::kS3 && text.find("${LAKE") == std::string::npos) continue;
    if (place == Place::kRestS3 && text.find("${LAKE_CATALOG}") == std::string::npos) continue;
    scripts.push_back({entry.path().stem().string(), place});
  }
  std::ranges::sort(scripts, {}, &Script::name);
  return scripts;
}

INSTANTIATE_TEST_SUITE_P(Scripts, ScriptTest, ::testing::ValuesIn(Scripts(Place::kLocal)),
                         [](const auto& info) { return info.param.name; });
INSTANTIATE_TEST_SUITE_P(ScriptsOnS3, ScriptTest, ::testing::ValuesIn(Scripts(Place::kS3)),
                         [](const auto& info) { return info.param.name; });
INSTANTIATE_TEST_SUITE_P(ScriptsOnRestS3, ScriptTest, ::testing::ValuesIn(Scripts(Place::kRestS3)),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace floe::sql
