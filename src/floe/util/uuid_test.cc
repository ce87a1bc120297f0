#include "floe/util/uuid.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

namespace floe {
namespace {

TEST(UuidTest, IsAVersion4UuidAndDoesNotRepeat) {
  // RFC 4122: version nibble 4, variant bits 10.
  const std::regex form("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    std::string uuid = NewUuidV4();
    EXPECT_TRUE(std::regex_match(uuid, form)) << uuid;
    EXPECT_TRUE(seen.insert(uuid).second) << uuid;
  }
}

}  // namespace
}  // namespace floe
