#include "floe/util/error.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

Result<int> ParsePositive(int v) {
  if (v <= 0) return InvalidArgument("value {} is not positive", v);
  return v;
}

Result<int> Doubled(int v) {
  FLOE_ASSIGN_OR_RETURN(int x, ParsePositive(v));
  return 2 * x;
}

Status Check(int v) {
  FLOE_RETURN_IF_ERROR_CTX(ParsePositive(v), "checking the input");
  return Ok();
}

TEST(ErrorTest, PropagatesThroughMacros) {
  EXPECT_EQ(Doubled(4).value(), 8);
  auto failed = Doubled(-1);
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(failed.error().message(), "value -1 is not positive");
}

TEST(ErrorTest, ContextIsPrefixed) {
  auto status = Check(0);
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().ToString(), "invalid argument: checking the input: value 0 is not positive");
  EXPECT_TRUE(Check(1).has_value());
}

TEST(ErrorTest, RetryableBit) {
  Error error = CommitFailed("base metadata changed").error();
  EXPECT_FALSE(error.retryable());
  error.SetRetryable();
  EXPECT_TRUE(error.retryable());
  EXPECT_EQ(error.kind(), ErrorKind::kCommitFailed);
}

}  // namespace
}  // namespace floe
