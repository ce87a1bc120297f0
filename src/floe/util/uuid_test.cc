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

// The example of the Iceberg spec (Appendix D: a uuid as JSON) and its bytes.
constexpr std::string_view kSpecUuid = "f79c3e09-677c-4bbd-a479-3f349cb785e7";
constexpr std::string_view kSpecBytes =
    "\xf7\x9c\x3e\x09\x67\x7c\x4b\xbd\xa4\x79\x3f\x34\x9c\xb7\x85\xe7";

TEST(UuidTest, ParsesCanonicalTextOfEitherCase) {
  Result<std::string> lower = ParseUuid(kSpecUuid);
  ASSERT_TRUE(lower.has_value()) << lower.error().message();
  EXPECT_EQ(*lower, kSpecBytes);
  Result<std::string> upper = ParseUuid("F79C3E09-677C-4BBD-A479-3F349CB785E7");
  ASSERT_TRUE(upper.has_value()) << upper.error().message();
  EXPECT_EQ(*upper, kSpecBytes);
  EXPECT_EQ(UuidToString(*lower), kSpecUuid);
}

TEST(UuidTest, RoundTripsRandomUuids) {
  for (int i = 0; i < 100; ++i) {
    std::string uuid = RandomUuid();
    Result<std::string> bytes = ParseUuid(uuid);
    ASSERT_TRUE(bytes.has_value()) << uuid;
    EXPECT_EQ(bytes->size(), 16u);
    EXPECT_EQ(UuidToString(*bytes), uuid);
  }
}

TEST(UuidTest, RejectsOtherText) {
  for (std::string_view bad : {
           "",
           "f79c3e09677c4bbda4793f349cb785e7",       // no dashes
           "f79c3e09-677c-4bbd-a479-3f349cb785e",    // a digit short
           "f79c3e09-677c-4bbd-a479-3f349cb785e7a",  // a digit long
           "f79c3e0-9677c-4bbd-a479-3f349cb785e7",   // dash misplaced
           "g79c3e09-677c-4bbd-a479-3f349cb785e7",   // not hex
           "{f79c3e09-677c-4bbd-a479-3f349cb785e}",  // braces
       }) {
    Result<std::string> parsed = ParseUuid(bad);
    ASSERT_FALSE(parsed.has_value()) << bad;
    EXPECT_EQ(parsed.error().kind(), ErrorKind::kInvalidArgument) << bad;
  }
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
