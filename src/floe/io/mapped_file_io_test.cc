#include "floe/io/mapped_file_io.h"

#include <gtest/gtest.h>

#include "floe/io/memory_file_io.h"
#include "floe/testing/testing.h"

namespace floe::io {
namespace {

Status Put(FileIO& io, std::string_view location, std::string_view text) {
  return io.WriteFileAtomically(location, text, /*overwrite=*/false);
}

TEST(MappedFileIOTest, RelativePathsOfOlderTablesResolveUnderTheWarehouse) {
  auto memory = std::make_shared<MemoryFileIO>();
  std::vector<std::pair<std::string, std::string>> warned;
  auto io = ResolveRelativeToWarehouse(memory, "/home/u/data/wh/",
                                       [&](std::string_view relative, std::string_view resolved) {
                                         warned.emplace_back(relative, resolved);
                                       });
  // Written as "wh/..." (from /home/u/data) and as "data/wh/..." (from /home/u).
  FLOE_ASSERT_OK(Put(*io, "wh/db/t/a.txt", "a"));
  FLOE_ASSERT_OK(Put(*io, "./data/wh/db/t/b.txt", "b"));
  FLOE_ASSERT_OK(memory->GetInfo("/home/u/data/wh/db/t/a.txt"));
  FLOE_ASSERT_OK(memory->GetInfo("/home/u/data/wh/db/t/b.txt"));
  ASSERT_EQ(warned.size(), 1u);  // once, for the first
  EXPECT_TRUE(warned[0].first.starts_with("wh/db/t")) << warned[0].first;
  EXPECT_EQ(warned[0].second, "/home/u/data/" + warned[0].first);

  // Absolute locations, other schemes and paths that do not start with the warehouse's name pass.
  FLOE_ASSERT_OK(Put(*io, "/elsewhere/c.txt", "c"));
  FLOE_ASSERT_OK(memory->GetInfo("/elsewhere/c.txt"));
  FLOE_ASSERT_OK(Put(*io, "other/d.txt", "d"));
  FLOE_ASSERT_OK(memory->GetInfo("other/d.txt"));
  FLOE_ASSERT_OK_AND_ASSIGN(FileEntry entry, io->GetInfo("wh/db/t/a.txt"));
  EXPECT_EQ(entry.size, 1);
}

TEST(MappedFileIOTest, MapsEveryOperation) {
  auto memory = std::make_shared<MemoryFileIO>();
  auto io = MapFileLocations(
      memory, [](std::string_view location) { return "/root/" + std::string(location); });
  FLOE_ASSERT_OK(Put(*io, "x/a", "1"));
  FLOE_ASSERT_OK(io->Rename("x/a", "x/b"));
  FLOE_ASSERT_OK_AND_ASSIGN(auto listed, io->List("x"));
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].name, "b");
  FLOE_ASSERT_OK(memory->GetInfo("/root/x/b"));
  FLOE_ASSERT_OK(io->Delete("x/b"));
  EXPECT_EQ(memory->GetInfo("/root/x/b").error().kind(), ErrorKind::kNotFound);
}

}  // namespace
}  // namespace floe::io
