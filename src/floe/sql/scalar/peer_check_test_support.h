#pragma once

// Runs expressions over the sample rows in floe and in DuckDB and expects equal cells.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "floe/sql/scalar/test_support.h"

namespace floe::sql::scalar::testing {

struct PeerCase {
  std::string floe;
  std::string duck;  // empty: the same text
};

inline void ExpectSameAsDuckDb(const std::vector<PeerCase>& cases) {
  if (!floe::testing::PeerInstalled("@duckdb/node-api")) {
    GTEST_SKIP() << "DuckDB peer not installed";
  }
  std::vector<std::string> duck_sql;
  for (const PeerCase& c : cases) duck_sql.push_back(c.duck.empty() ? c.floe : c.duck);
  auto duck = DuckSample(duck_sql);
  ASSERT_TRUE(duck) << duck.error().ToString();
  for (size_t k = 0; k < cases.size(); ++k) {
    std::vector<std::string> ours = EvalSample(cases[k].floe);
    ASSERT_EQ(ours.size(), (*duck)[k].size()) << cases[k].floe << ": " << ours[0];
    for (size_t r = 0; r < ours.size(); ++r) {
      EXPECT_TRUE(SameCell(ours[r], (*duck)[k][r]))
          << cases[k].floe << " row " << r << ": floe " << ours[r] << ", duckdb " << (*duck)[k][r];
    }
  }
}

// The single value of a constant expression as CellText, or the error.
inline std::string EvalOne(std::string_view sql) {
  std::vector<std::string> cells = EvalSample(sql);
  return cells.empty() ? "" : cells[0];
}

}  // namespace floe::sql::scalar::testing
