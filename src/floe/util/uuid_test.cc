#include "floe/util/uuid.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <regex>
#include <set>

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

TEST(UuidTest, ForkedChildrenDoNotRepeatTheParent) {
  RandomUuid();  // the parent's generator is seeded before the fork
  std::set<std::string> seen;
  for (int child = 0; child < 2; ++child) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      std::string uuid = RandomUuid();
      _exit(write(fds[1], uuid.data(), uuid.size()) == static_cast<ssize_t>(uuid.size()) ? 0 : 1);
    }
    close(fds[1]);
    char buffer[36];
    ASSERT_EQ(read(fds[0], buffer, sizeof(buffer)), 36);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    seen.insert(std::string(buffer, sizeof(buffer)));
  }
  seen.insert(RandomUuid());
  EXPECT_EQ(seen.size(), 3u);
}

}  // namespace
}  // namespace floe
