// `floe sql` end to end: the real binary with -e, -f, -i and statements piped to stdin, in the
// three result modes. The tableau layout is Flink's (sqlClient.md: borders of '-' joined by '+',
// cells right-aligned between "| " and " |", "N rows in set"); jsonl output is parsed back.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "floe/cli/commands.h"
#include "floe/cli/run_floe_testing.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::cli {
namespace {

using testing::CommandRun;
using testing::Quote;

constexpr std::string_view kErrorHeader = "[ERROR] Could not execute SQL statement. Reason:\n";
constexpr std::string_view kSucceeded = "[INFO] Execute statement succeeded.";

class SqlCommandTest : public ::testing::Test {
 protected:
  std::string Warehouse() const { return (dir_.path() / "warehouse").string(); }

  CommandRun Sql(const std::string& args, const std::string& stdin_text = "") {
    std::string command = "sql --warehouse " + Quote(Warehouse()) + " " + args;
    if (stdin_text.empty()) return testing::Floe(command + " </dev/null");
    std::string input = (dir_.path() / "stdin.txt").string();
    std::ofstream(input) << stdin_text;
    return testing::Floe(command + " <" + Quote(input));
  }

  std::string WriteFile(const std::string& name, const std::string& text) {
    std::string path = (dir_.path() / name).string();
    std::ofstream(path) << text;
    return path;
  }

  floe::testing::TempDir dir_;
};

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

size_t Count(const std::string& text, std::string_view what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++count;
  }
  return count;
}

// The cells of one tableau row "| a | b |", with their padding removed; checks that every cell
// is right-aligned in its column (text ends right before " |").
std::vector<std::string> Cells(const std::string& line) {
  std::vector<std::string> cells;
  EXPECT_TRUE(line.starts_with("| ") && line.ends_with(" |")) << line;
  std::string inner = line.substr(2, line.size() - 4);
  size_t start = 0;
  while (true) {
    size_t bar = inner.find(" | ", start);
    std::string cell = inner.substr(start, bar == std::string::npos ? bar : bar - start);
    cells.push_back(cell.substr(cell.find_first_not_of(' ')));
    if (bar == std::string::npos) break;
    start = bar + 3;
  }
  return cells;
}

// A batch tableau as Flink lays it out: border, header, border, rows, border, "N rows in set",
// every line as wide as the border and the column separators where the border has its '+'.
// Returns the rows' cells, header first.
std::vector<std::vector<std::string>> ParseTableau(const std::vector<std::string>& lines) {
  std::vector<std::vector<std::string>> rows;
  EXPECT_GE(lines.size(), 6u);
  if (lines.size() < 6) return rows;
  const std::string& border = lines[0];
  EXPECT_TRUE(border.starts_with("+-") && border.ends_with("-+")) << border;
  EXPECT_EQ(border.find_first_not_of("+-"), std::string::npos) << border;
  size_t n = lines.size();
  EXPECT_EQ(lines[2], border);
  EXPECT_EQ(lines[n - 2], border);
  size_t data_rows = n - 5;
  EXPECT_EQ(lines[n - 1],
            std::to_string(data_rows) + (data_rows > 1 ? " rows" : " row") + " in set");
  for (size_t i = 1; i < n - 2; ++i) {
    if (i == 2) continue;
    EXPECT_EQ(lines[i].size(), border.size()) << lines[i];
    for (size_t c = 0; c < border.size(); ++c) {
      if (border[c] == '+') {
        EXPECT_EQ(lines[i][c], '|') << lines[i];
      }
    }
    rows.push_back(Cells(lines[i]));
  }
  return rows;
}

TEST_F(SqlCommandTest, ExecuteOptionPrintsMessagesAndATableau) {
  CommandRun run = Sql("-e " + Quote("SET 'pipeline.name' = 'nightly-load'; SET;"));
  ASSERT_EQ(run.exit_code, kExitOk) << run.err;
  EXPECT_EQ(run.err, "");
  std::vector<std::string> lines = Lines(run.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], kSucceeded);
  auto rows = ParseTableau({lines.begin() + 1, lines.end()});
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0], (std::vector<std::string>{"key", "value"}));
  EXPECT_NE(std::ranges::find(rows, std::vector<std::string>{"pipeline.name", "nightly-load"}),
            rows.end());
}

// sql-client.display.max-column-width cuts longer cells to width - 3 characters and "...".
TEST_F(SqlCommandTest, NarrowColumnsTruncateAsFlinkDoes) {
  CommandRun run =
      Sql("-e " + Quote("SET 'sql-client.display.max-column-width' = '12'; SET 'pipeline.name' = "
                        "'abcdefghijklmnop'; SET;"));
  ASSERT_EQ(run.exit_code, kExitOk) << run.err;
  std::vector<std::string> lines = Lines(run.out);
  ASSERT_GE(lines.size(), 2u);
  auto rows = ParseTableau({lines.begin() + 2, lines.end()});
  EXPECT_NE(std::ranges::find(rows, std::vector<std::string>{"pipeline....", "abcdefghi..."}),
            rows.end());
  EXPECT_EQ(lines[2], "+--------------+--------------+");
}

TEST_F(SqlCommandTest, JsonlRowsParseBack) {
  CommandRun run = Sql("-e " + Quote("SET 'sql-client.execution.result-mode' = 'jsonl'; "
                                     "SET 'pipeline.name' = 'a \"quoted\" name'; SET;"));
  ASSERT_EQ(run.exit_code, kExitOk) << run.err;
  std::vector<std::string> lines = Lines(run.out);
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0], kSucceeded);
  EXPECT_EQ(lines[1], kSucceeded);
  std::map<std::string, std::string> options;
  for (size_t i = 2; i < lines.size(); ++i) {
    auto row = Json::Parse(lines[i]);
    ASSERT_TRUE(row.has_value()) << lines[i];
    ASSERT_TRUE(row->is_object());
    EXPECT_EQ(row->as_object().size(), 2u) << lines[i];  // a bounded result has no "op"
    options[row->GetString("key").value_or("")] = row->GetString("value").value_or("");
  }
  EXPECT_EQ(options["pipeline.name"], "a \"quoted\" name");
  EXPECT_EQ(options["sql-client.execution.result-mode"], "jsonl");
}

TEST_F(SqlCommandTest, ChangelogModePrintsOneRowTextPerRow) {
  CommandRun run = Sql("-e " + Quote("SET 'sql-client.execution.result-mode' = 'changelog'; "
                                     "SET 'pipeline.name' = 'p1'; SET;"));
  ASSERT_EQ(run.exit_code, kExitOk) << run.err;
  std::vector<std::string> lines = Lines(run.out);
  EXPECT_NE(std::ranges::find(lines, "+I[pipeline.name, p1]"), lines.end()) << run.out;
  EXPECT_NE(std::ranges::find(lines, "+I[sql-client.execution.result-mode, changelog]"),
            lines.end());
}

// -f stops at the first error and names its place in the file, not in the statement.
TEST_F(SqlCommandTest, ScriptStopsAtTheFirstErrorWithItsLineAndColumn) {
  std::string script = WriteFile("bad.sql",
                                 "-- a comment line\n"
                                 "SET 'pipeline.name' = 'x'; SET 'k' =\n"
                                 "  'v'\n"
                                 "  WHERE;\n"
                                 "SET;\n");
  CommandRun run = Sql("-f " + Quote(script));
  EXPECT_EQ(run.exit_code, kExitFailure);
  EXPECT_EQ(run.out, std::string(kSucceeded) + "\n");  // the SET before the error, and no more
  ASSERT_TRUE(run.err.starts_with(kErrorHeader)) << run.err;
  EXPECT_TRUE(run.err.substr(kErrorHeader.size()).starts_with("line 4, column 3: ")) << run.err;

  // On the statement's first line, columns count from the start of the line it is on.
  script = WriteFile("bad2.sql", "SET 'a' = 'b';   SELEC 1;\n");
  run = Sql("-f " + Quote(script));
  EXPECT_EQ(run.exit_code, kExitFailure);
  EXPECT_TRUE(run.err.substr(kErrorHeader.size()).starts_with("line 1, column 18: ")) << run.err;
}

// A statement that parses but fails to run is reported at the line where it starts.
TEST_F(SqlCommandTest, ExecutionErrorsNameTheStatementsStart) {
  CommandRun run =
      Sql("-e " + Quote("SET 'pipeline.name' = 'x';\n\n  SET 'sql-client.execution.result-mode' = "
                        "'sideways';\nSET;"));
  EXPECT_EQ(run.exit_code, kExitFailure);
  ASSERT_TRUE(run.err.starts_with(kErrorHeader)) << run.err;
  EXPECT_TRUE(run.err.substr(kErrorHeader.size()).starts_with("line 3, column 3: ")) << run.err;
  EXPECT_NE(run.err.find("sideways"), std::string::npos) << run.err;
  EXPECT_EQ(Count(run.out, "in set"), 0u);
}

TEST_F(SqlCommandTest, InitFileRunsFirst) {
  std::string init = WriteFile("init.sql", "SET 'sql-client.execution.result-mode' = 'jsonl';\n");
  CommandRun run = Sql("-i " + Quote(init) + " -e " + Quote("SET;"));
  ASSERT_EQ(run.exit_code, kExitOk) << run.err;
  EXPECT_NE(run.out.find(R"({"key":"sql-client.execution.result-mode","value":"jsonl"})"),
            std::string::npos)
      << run.out;

  // A failing init file ends the client before anything else runs (as Flink's -i does).
  std::string bad = WriteFile("bad_init.sql", "SET 'parallelism.default' = 'many';\n");
  run = Sql("-i " + Quote(bad) + " -e " + Quote("SET;"));
  EXPECT_EQ(run.exit_code, kExitFailure);
  EXPECT_TRUE(run.err.starts_with(kErrorHeader)) << run.err;
  EXPECT_EQ(Count(run.out, "{"), 0u);
}

TEST_F(SqlCommandTest, PipedStatementsSpanLinesAndStopAtQuit) {
  CommandRun run = Sql("",
                       "SET 'sql-client.execution.result-mode'\n"
                       "  = 'jsonl'\n"
                       ";\n"
                       "-- only a comment\n"
                       "\n"
                       "SET 'pipeline.name' = 'a;b';  -- ';' inside a string\n"
                       "SELEC 1;\n"
                       "help\n"
                       "SET;\n"
                       "QUIT;\n"
                       "SET;\n");
  EXPECT_EQ(run.exit_code, kExitOk) << run.err;
  // The error does not end an interactive session; its position is within what was entered.
  EXPECT_EQ(Count(run.err, std::string(kErrorHeader)), 1u) << run.err;
  EXPECT_NE(run.err.find("line 1, column 1: "), std::string::npos) << run.err;
  EXPECT_NE(run.out.find("HELP;  QUIT;"), std::string::npos) << run.out;  // HELP without ';'
  EXPECT_EQ(Count(run.out, R"({"key":"pipeline.name","value":"a;b"})"), 1u) << run.out;
  EXPECT_EQ(Count(run.out, kSucceeded), 2u);
}

TEST_F(SqlCommandTest, EndOfInputEndsTheSession) {
  CommandRun run = Sql("", "SET 'pipeline.name' = 'x';\n");
  EXPECT_EQ(run.exit_code, kExitOk) << run.err;
  EXPECT_EQ(run.out, std::string(kSucceeded) + "\n");
}

TEST_F(SqlCommandTest, BadArguments) {
  CommandRun run = Sql("-f " + Quote((dir_.path() / "missing.sql").string()));
  EXPECT_EQ(run.exit_code, kExitBadInput);
  EXPECT_NE(run.err.find("missing.sql"), std::string::npos) << run.err;
  run = Sql("-f x.sql -e " + Quote("SET;"));
  EXPECT_EQ(run.exit_code, kExitBadInput);
}

// --defaults reads the documentation's sql-client-defaults.yaml form: the catalog is there, and
// the configuration is SET, before -e runs.
TEST_F(SqlCommandTest, DefaultsFileCreatesCatalogsAndSetsOptions) {
  const std::string lake = (dir_.path() / "lake").string();
  std::string yaml = WriteFile("defaults.yaml",
                               "catalogs:\n"
                               "  - name: my_catalog\n"
                               "    type: iceberg\n"
                               "    catalog-type: hadoop\n"
                               "    warehouse: " +
                                   lake +
                                   "\n"
                                   "configuration:\n"
                                   "  execution.runtime-mode: batch\n"
                                   "  sql-client.execution.result-mode: jsonl\n");
  CommandRun run = Sql("--defaults " + Quote(yaml) + " -e " +
                       Quote("SHOW CATALOGS; CREATE TABLE my_catalog.`default`.t (id BIGINT); "
                             "INSERT INTO my_catalog.`default`.t VALUES (7); "
                             "SELECT id FROM my_catalog.`default`.t;"));
  ASSERT_EQ(run.exit_code, kExitOk) << run.err;
  EXPECT_NE(run.out.find(R"({"catalog name":"my_catalog"})"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(R"({"id":7})"), std::string::npos) << run.out;
  EXPECT_TRUE(std::filesystem::exists(dir_.path() / "lake" / "default" / "t" / "metadata"));
}

TEST_F(SqlCommandTest, BadDefaultsFilesNameTheirLine) {
  std::string yaml = WriteFile("bad.yaml", "catalogs:\n  - name: a\n    type: [iceberg\n");
  CommandRun run = Sql("-d " + Quote(yaml) + " -e " + Quote("SHOW CATALOGS;"));
  EXPECT_EQ(run.exit_code, kExitBadInput);
  EXPECT_NE(run.err.find("bad.yaml: line "), std::string::npos) << run.err;

  yaml = WriteFile("nameless.yaml", "catalogs:\n  - type: iceberg\n    catalog-type: hadoop\n");
  run = Sql("-d " + Quote(yaml) + " -e " + Quote("SHOW CATALOGS;"));
  EXPECT_EQ(run.exit_code, kExitBadInput);
  EXPECT_NE(run.err.find("nameless.yaml: line 2: a catalog without a name"), std::string::npos)
      << run.err;

  yaml = WriteFile("tables.yaml", "tables:\n  - name: t\n");
  run = Sql("-d " + Quote(yaml) + " -e " + Quote("SHOW CATALOGS;"));
  EXPECT_EQ(run.exit_code, kExitBadInput);
  EXPECT_NE(run.err.find("tables.yaml: line 1: unknown section 'tables'"), std::string::npos)
      << run.err;

  // A catalog the YAML describes but floe cannot make fails with the entry's line.
  yaml = WriteFile("version.yaml",
                   "catalogs:\n  - name: c\n    type: iceberg\n    catalog-type: hadoop\n"
                   "    warehouse: /tmp/x\n    property-version: 99\n");
  run = Sql("-d " + Quote(yaml) + " -e " + Quote("SHOW CATALOGS;"));
  EXPECT_EQ(run.exit_code, kExitFailure);
  EXPECT_NE(run.err.find("version.yaml: line 2: "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("property-version '99' is not supported"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace floe::cli
