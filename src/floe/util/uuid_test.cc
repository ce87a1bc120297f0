#include "floe/util/uuid.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <regex>
#include <set>
#include <string>

namespace floe {
namespace {

TEST(UuidTest, CanonicalVersion4AndUnique) {
  std::regex canonical("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    std::string uuid = RandomUuid();
    EXPECT_TRUE(std::regex_match(uuid, canonical)) << uuid;
    seen.insert(uuid);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(UuidTest, ForkedChildDoesNotRepeatItsParent) {
  RandomUuid();  // the parent's generator is seeded before the fork
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::string child = RandomUuid();
    ssize_t written = ::write(fds[1], child.data(), child.size());
    ::_exit(written == static_cast<ssize_t>(child.size()) ? 0 : 1);
  }
  std::string parent = RandomUuid();
  char buffer[64] = {};
  ssize_t n = ::read(fds[0], buffer, sizeof(buffer));
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(fds[0]);
  ::close(fds[1]);
  ASSERT_EQ(n, 36);
  EXPECT_NE(std::string(buffer, 36), parent);
}

}  // namespace
}  // namespace floe
