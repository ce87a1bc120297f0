#include "floe/cli/sql_client.h"

#include <gtest/gtest.h>

namespace floe::cli {
namespace {

Error Parse(std::string message) { return Error(ErrorKind::kInvalidArgument, std::move(message)); }

TEST(ScriptErrorTextTest, MovesStatementPositionsIntoTheScript) {
  // On the statement's first line the column shifts by where the statement starts.
  EXPECT_EQ(ScriptErrorText(Parse("line 1, column 7: expected ')'"), {.line = 4, .column = 10}),
            "line 4, column 16: expected ')'");
  // On its later lines only the line shifts.
  EXPECT_EQ(ScriptErrorText(Parse("line 3, column 2: found 'X'"), {.line = 4, .column = 10}),
            "line 6, column 2: found 'X'");
}

TEST(ScriptErrorTextTest, OtherErrorsGetTheStatementsStart) {
  EXPECT_EQ(ScriptErrorText(Parse("table 'db.t' not found"), {.line = 2, .column = 5}),
            "line 2, column 5: table 'db.t' not found");
  EXPECT_EQ(ScriptErrorText(Parse("line one is broken"), {.line = 2, .column = 1}),
            "line 2, column 1: line one is broken");
}

}  // namespace
}  // namespace floe::cli
