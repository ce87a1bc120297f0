// Window table functions against DuckDB: the same rows in CSV files that both read, the windows
// computed by DuckDB with its own time_bucket and, for streaming mode, the rows the watermark makes
// late computed from the files' order (the filesystem source reads its folder's files in name
// order, one batch each, and its watermark after a file is the greatest time so far less the
// delay).

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "floe/sql/scalar/result_format.h"
#include "floe/sql/session.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::sql {
namespace {

// Out of order within a file, two rows late for the streaming watermark (12:00:59 after the
// 12:00 window closed, 12:01:30 after 12:01 closed), no rows for 12:02 and 12:03, and a row on
// a window boundary (12:05:00).
constexpr const char* kFiles[] = {
    "2024-01-01 12:00:05,a,1\n2024-01-01 12:00:50,b,2\n2024-01-01 12:00:30,a,3\n"
    "2024-01-01 12:01:10,a,4\n",
    "2024-01-01 12:00:59,b,5\n2024-01-01 12:01:20,b,6\n2024-01-01 12:04:30,a,7\n",
    "2024-01-01 12:04:01,a,8\n2024-01-01 12:01:30,c,9\n2024-01-01 12:05:00,b,10\n",
};

class WindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (tmp_.path() / "events").string();
    std::filesystem::create_directories(dir_);
    for (size_t i = 0; i < std::size(kFiles); ++i) {
      std::ofstream(fmt::format("{}/{:02}.csv", dir_, i)) << kFiles[i];
    }
    FLOE_ASSERT_OK(session_.Open());
    Exec("USE CATALOG default_catalog");
    Exec(fmt::format(
        "CREATE TABLE ev (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts - INTERVAL "
        "'2' SECOND) WITH ('connector'='filesystem', 'path'='{}', 'format'='csv')",
        dir_));
  }

  void Exec(const std::string& sql) {
    auto result = session_.ExecuteSql(sql);
    ASSERT_TRUE(result.has_value()) << sql << ": " << result.error().ToString();
  }

  // The rows floe's result ends with, sorted, each as its cells joined by " | ": its changes
  // applied (+I and +U add a row, -U and -D take one away). `append_only`: every row must be an
  // insert.
  std::vector<std::string> Floe(const std::string& mode, const std::string& sql,
                                bool append_only = true) {
    Exec(fmt::format("SET 'execution.runtime-mode' = '{}'", mode));
    auto result = session_.ExecuteSql(sql);
    EXPECT_TRUE(result.has_value()) << sql << ": " << result.error().ToString();
    if (!result.has_value()) return {};
    std::vector<std::string> rows;
    while (true) {
      auto next = result->rows->Next();
      EXPECT_TRUE(next.has_value()) << sql << ": " << next.error().ToString();
      if (!next.has_value() || !next->has_value()) break;
      const RecordBatch& batch = **next;
      for (int64_t r = 0; r < batch.num_rows(); ++r) {
        RowKind kind = batch.row_kind(r);
        if (append_only) {
          EXPECT_EQ(kind, RowKind::kInsert) << sql;
        }
        std::string row;
        for (int c = 0; c < batch.num_columns(); ++c) {
          if (c > 0) row += " | ";
          row += FormatCell(batch.column(c), r);
        }
        if (kind == RowKind::kInsert || kind == RowKind::kUpdateAfter) {
          rows.push_back(std::move(row));
          continue;
        }
        auto found = std::find(rows.begin(), rows.end(), row);
        EXPECT_NE(found, rows.end()) << sql << ": a retraction of a row not emitted: " << row;
        if (found != rows.end()) rows.erase(found);
      }
    }
    std::sort(rows.begin(), rows.end());
    return rows;
  }

  // DuckDB's rows for `sql` over the relation `r` (ts, k, v, f = the file's name), the columns
  // named by `columns`, sorted.
  std::vector<std::string> Duck(const std::string& sql, const std::vector<std::string>& columns) {
    std::string query = fmt::format(
        "WITH r AS (SELECT ts, k, v, filename AS f FROM read_csv('{}/*.csv', header=false, "
        "filename=true, columns={{'ts': 'TIMESTAMP', 'k': 'VARCHAR', 'v': 'INTEGER'}})) {}",
        dir_, sql);
    auto out = testing::RunPeer("duck", {query});
    EXPECT_TRUE(out.has_value()) << query << ": " << out.error().ToString();
    if (!out.has_value()) return {};
    std::vector<std::string> rows;
    std::istringstream lines(*out);
    std::string line;
    while (std::getline(lines, line)) {
      if (line.empty()) continue;
      auto json = Json::Parse(line);
      EXPECT_TRUE(json.has_value()) << line;
      if (!json.has_value()) continue;
      std::string row;
      for (size_t c = 0; c < columns.size(); ++c) {
        const Json* cell = json->Find(columns[c]);
        if (c > 0) row += " | ";
        row += cell == nullptr ? "?" : cell->is_string() ? cell->as_string() : cell->Dump();
      }
      rows.push_back(std::move(row));
    }
    std::sort(rows.begin(), rows.end());
    return rows;
  }

  static void RequireDuck() {
    if (!testing::PeerInstalled("@duckdb/node-api")) GTEST_SKIP() << "DuckDB peer not installed";
  }

  testing::TempDir tmp_;
  std::string dir_;
  Session session_{SessionOptions{.embedded_warehouse = (tmp_.path() / "embedded").string()}};
};

constexpr const char* kTumble =
    "SELECT window_start, window_end, count(*), sum(v) FROM TABLE(TUMBLE(TABLE ev, "
    "DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end";

// DuckDB's text of a timestamp as floe shows TIMESTAMP(3).
std::string Ms(const std::string& expr) {
  return fmt::format("strftime({}, '%Y-%m-%d %H:%M:%S.%g')", expr);
}

// DuckDB's CTE `kept`: the rows of `r` a streaming 1-minute TUMBLE keeps. A row is late when the
// watermark after the files before its own has reached its window's last millisecond.
std::string KeptCte() {
  return "fm AS (SELECT f, max(ts) AS m FROM r GROUP BY f), "
         "wm AS (SELECT a.f, (SELECT max(b.m) FROM fm b WHERE b.f < a.f) - INTERVAL 2 SECOND AS w "
         "FROM fm a), "
         "kept AS (SELECT r.* FROM r JOIN wm USING (f) WHERE w IS NULL OR time_bucket(INTERVAL 1 "
         "MINUTE, ts) + INTERVAL 1 MINUTE - INTERVAL 1 MILLISECOND > w) ";
}

TEST_F(WindowTest, TumbleInBatchModeCountsEveryRow) {
  RequireDuck();
  std::string bucket = "time_bucket(INTERVAL 1 MINUTE, ts)";
  EXPECT_EQ(Floe("batch", kTumble),
            Duck(fmt::format("SELECT {} AS ws, {} AS we, count(*) AS c, sum(v) AS s FROM r "
                             "GROUP BY ALL",
                             Ms(bucket), Ms(bucket + " + INTERVAL 1 MINUTE")),
                 {"ws", "we", "c", "s"}));
}

TEST_F(WindowTest, TumbleInStreamingModeDropsLateRows) {
  RequireDuck();
  std::string bucket = "time_bucket(INTERVAL 1 MINUTE, ts)";
  std::string kept = KeptCte();
  std::vector<std::string> expected =
      Duck(fmt::format(", {} SELECT {} AS ws, {} AS we, count(*) AS c, sum(v) AS s FROM kept "
                       "GROUP BY ALL",
                       kept, Ms(bucket), Ms(bucket + " + INTERVAL 1 MINUTE")),
           {"ws", "we", "c", "s"});
  std::vector<std::string> streaming = Floe("streaming", kTumble);
  EXPECT_EQ(streaming, expected);
  // The late rows exist: streaming answers differ from batch ones.
  EXPECT_NE(streaming, Floe("batch", kTumble));
  std::vector<std::string> late = Duck(
      fmt::format(", {} SELECT (SELECT count(*) FROM r) - (SELECT count(*) FROM kept) AS n", kept),
      {"n"});
  EXPECT_EQ(late, (std::vector<std::string>{"2"}));
}

TEST_F(WindowTest, HopAndCumulateInBatchMode) {
  RequireDuck();
  EXPECT_EQ(
      Floe("batch",
           "SELECT window_start, window_end, count(*) FROM TABLE(HOP(TABLE ev, DESCRIPTOR(ts), "
           "INTERVAL '30' SECOND, INTERVAL '1' MINUTE)) GROUP BY window_start, window_end"),
      Duck(fmt::format("SELECT {} AS ws, {} AS we, count(*) AS c FROM (SELECT unnest(["
                       "time_bucket(INTERVAL 30 SECOND, ts), time_bucket(INTERVAL 30 SECOND, ts) "
                       "- INTERVAL 30 SECOND]) AS s FROM r) GROUP BY ALL",
                       Ms("s"), Ms("s + INTERVAL 1 MINUTE")),
           {"ws", "we", "c"}));
  EXPECT_EQ(
      Floe("batch",
           "SELECT window_start, window_end, sum(v) FROM TABLE(CUMULATE(DATA => TABLE ev, "
           "TIMECOL => DESCRIPTOR(ts), STEP => INTERVAL '30' SECOND, SIZE => INTERVAL '1' "
           "MINUTE)) GROUP BY window_start, window_end"),
      Duck(fmt::format("SELECT {} AS ws, {} AS we, sum(v) AS s FROM (SELECT v, time_bucket("
                       "INTERVAL 1 MINUTE, ts) AS s, unnest(generate_series(time_bucket(INTERVAL "
                       "30 SECOND, ts) + INTERVAL 30 SECOND, time_bucket(INTERVAL 1 MINUTE, ts) + "
                       "INTERVAL 1 MINUTE, INTERVAL 30 SECOND)) AS e FROM r) GROUP BY ALL",
                       Ms("s"), Ms("e")),
           {"ws", "we", "s"}));
}

// Deduplication and Top-N (ROW_NUMBER, RANK, DENSE_RANK OVER) against DuckDB's window
// functions over the same rows, in both modes: keeping the first row per key is append-only in
// streaming mode, keeping the last one and a Top-N end with DuckDB's rows once their changes are
// applied.
TEST_F(WindowTest, DeduplicationAndTopNMatchDuckDB) {
  RequireDuck();
  auto floe = [](std::string_view function, std::string_view over, std::string_view filter) {
    return fmt::format("SELECT k, ts, v, rn FROM (SELECT *, {}() OVER ({}) AS rn FROM ev) WHERE {}",
                       function, over, filter);
  };
  auto duck = [](std::string_view function, std::string_view over, std::string_view filter) {
    return fmt::format(
        "SELECT k, {} AS t, v, rn FROM (SELECT *, {}() OVER ({}) AS rn FROM r) "
        "WHERE {}",
        Ms("ts"), function, over, filter);
  };
  struct Case {
    std::string_view function;
    std::string_view over;  // floe's, then DuckDB's (integer division is // there)
    std::string_view duck_over;
    std::string_view filter;
    bool append_only;
  };
  const Case cases[] = {
      {"ROW_NUMBER", "PARTITION BY k ORDER BY ts", "PARTITION BY k ORDER BY ts", "rn = 1", true},
      {"ROW_NUMBER", "PARTITION BY k ORDER BY ts DESC", "PARTITION BY k ORDER BY ts DESC", "rn = 1",
       false},
      {"ROW_NUMBER", "PARTITION BY k ORDER BY v DESC", "PARTITION BY k ORDER BY v DESC", "rn <= 2",
       false},
      {"RANK", "ORDER BY v / 4 DESC", "ORDER BY v // 4 DESC", "rn <= 4", false},
      {"DENSE_RANK", "ORDER BY v / 4", "ORDER BY v // 4", "rn < 3", false},
  };
  for (const Case& c : cases) {
    std::vector<std::string> expected =
        Duck(duck(c.function, c.duck_over, c.filter), {"k", "t", "v", "rn"});
    ASSERT_FALSE(expected.empty()) << c.over;
    EXPECT_EQ(Floe("batch", floe(c.function, c.over, c.filter)), expected) << c.over;
    EXPECT_EQ(Floe("streaming", floe(c.function, c.over, c.filter), c.append_only), expected)
        << c.over;
  }
}

// Window Top-N and deduplication over TUMBLE's rows: in streaming mode each window's top rows
// once, as inserts, when the watermark completes it (the late rows left out, as the window
// aggregate leaves them); in batch mode over every row. DuckDB ranks the same rows.
TEST_F(WindowTest, WindowTopNAndDeduplicationMatchDuckDB) {
  RequireDuck();
  auto floe = [](std::string_view over, std::string_view filter) {
    return fmt::format(
        "SELECT window_start, k, v, rn FROM (SELECT *, ROW_NUMBER() OVER ({}) AS rn FROM "
        "TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '1' MINUTE))) WHERE {}",
        over, filter);
  };
  auto duck = [](std::string_view from, std::string_view over, std::string_view filter) {
    return fmt::format(
        "SELECT {} AS ws, k, v, rn FROM (SELECT *, row_number() OVER ({}) AS rn FROM (SELECT *, "
        "time_bucket(INTERVAL 1 MINUTE, ts) AS window_start FROM {})) WHERE {}",
        Ms("window_start"), over, from, filter);
  };
  const std::pair<std::string_view, std::string_view> cases[] = {
      {"PARTITION BY window_start, window_end ORDER BY v DESC", "rn <= 2"},
      {"PARTITION BY window_start, window_end, k ORDER BY ts ASC", "rn = 1"},
  };
  for (const auto& [over, filter] : cases) {
    std::string duck_over = std::string(over);
    duck_over.replace(duck_over.find(", window_end"), 12, "");
    EXPECT_EQ(Floe("batch", floe(over, filter)),
              Duck(duck("r", duck_over, filter), {"ws", "k", "v", "rn"}))
        << over;
    std::vector<std::string> expected =
        Duck(", " + KeptCte() + duck("kept", duck_over, filter), {"ws", "k", "v", "rn"});
    ASSERT_FALSE(expected.empty());
    EXPECT_EQ(Floe("streaming", floe(over, filter)), expected) << over;
  }
}

TEST_F(WindowTest, StreamingWindowsNeedATimeAttribute) {
  Exec(
      fmt::format("CREATE TABLE plain (ts TIMESTAMP(3), k STRING, v INT) WITH "
                  "('connector'='filesystem', 'path'='{}', 'format'='csv')",
                  dir_));
  Exec("SET 'execution.runtime-mode' = 'streaming'");
  auto result = session_.ExecuteSql(
      "SELECT window_start, count(*) FROM TABLE(TUMBLE(TABLE plain, DESCRIPTOR(ts), INTERVAL '1' "
      "MINUTE)) GROUP BY window_start, window_end");
  ASSERT_FALSE(result.has_value());
  EXPECT_NE(result.error().message().find("must be a time attribute"), std::string::npos)
      << result.error().message();
}

}  // namespace
}  // namespace floe::sql
