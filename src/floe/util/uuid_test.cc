#include "floe/util/uuid.h"

#include <gtest/gtest.h>

#include <set>

namespace floe {
namespace {

TEST(UuidTest, CanonicalVersion4AndUnique) {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    std::string uuid = NewUuidV4();
    ASSERT_EQ(uuid.size(), 36u);
    for (size_t pos : {8u, 13u, 18u, 23u}) EXPECT_EQ(uuid[pos], '-') << uuid;
    EXPECT_EQ(uuid[14], '4') << uuid;
    EXPECT_NE(std::string("89ab").find(uuid[19]), std::string::npos) << uuid;
    EXPECT_TRUE(seen.insert(uuid).second) << uuid;
  }
}

}  // namespace
}  // namespace floe
