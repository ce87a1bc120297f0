// What only MemoryFileIO shows: location normalization, non-file schemes, folder renames. Behaviour
// shared with LocalFileIO is in file_io_test.cc.

#include "floe/io/memory_file_io.h"

#include <gtest/gtest.h>

#include "floe/testing/testing.h"

namespace floe::io {
namespace {

std::vector<std::string> Names(FileIO& io, std::string_view folder) {
  std::vector<std::string> names;
  auto entries = io.List(folder);
  EXPECT_TRUE(entries.has_value()) << entries.error().ToString();
  if (entries) {
    for (const FileEntry& entry : *entries) names.push_back(entry.name);
  }
  return names;
}

TEST(MemoryFileIOTest, SpellingsOfOneLocationNameOneFile) {
  MemoryFileIO io;
  FLOE_ASSERT_OK(io.WriteFile("file:///w/db/t/m.json", "{}", false));
  for (std::string_view location :
       {"/w/db/t/m.json", "file:/w/db/t/m.json", "/w//db/./t/m.json", "/w/db/x/../t/m.json"}) {
    FLOE_ASSERT_OK_AND_ASSIGN(std::string content, io.ReadFile(location));
    EXPECT_EQ(content, "{}") << location;
  }
  EXPECT_EQ(io.WriteFile("/w/db/t//m.json", "", false).error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_EQ(Names(io, "/w/db/t/"), std::vector<std::string>{"m.json"});
  EXPECT_EQ(Names(io, "/"), std::vector<std::string>{"w"});
}

TEST(MemoryFileIOTest, ObjectStoreLocations) {
  MemoryFileIO io;
  FLOE_ASSERT_OK(io.WriteFile("s3://bucket/db/t/data/a.parquet", "rows", false));
  FLOE_ASSERT_OK(io.WriteFile("s3://other/x", "other bucket", false));
  EXPECT_EQ(Names(io, "s3://bucket"), std::vector<std::string>{"db"});
  EXPECT_EQ(Names(io, "s3://bucket/db/t/data"), std::vector<std::string>{"a.parquet"});
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<FileEntry> entries, io.List("s3://bucket/db/t"));
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].location, "s3://bucket/db/t/data");
  FLOE_ASSERT_OK(io.WriteFileAtomically("s3://bucket/db/t/metadata/v1.metadata.json", "{}", false));
  EXPECT_EQ(Names(io, "s3://bucket/db/t/metadata"), std::vector<std::string>{"v1.metadata.json"});
  // The "/" path and the file: scheme are separate namespaces from the bucket.
  EXPECT_FALSE(io.Exists("/bucket/db").value());
}

TEST(MemoryFileIOTest, InstancesAreIndependent) {
  MemoryFileIO a;
  MemoryFileIO b;
  FLOE_ASSERT_OK(a.WriteFile("/x", "in a", false));
  EXPECT_FALSE(b.Exists("/x").value());
}

TEST(MemoryFileIOTest, RenameMovesAFolderWithItsContent) {
  MemoryFileIO io;
  FLOE_ASSERT_OK(io.WriteFile("/w/staging/t/data/a", "1", false));
  FLOE_ASSERT_OK(io.WriteFile("/w/staging/t/metadata/v1.metadata.json", "2", false));
  FLOE_ASSERT_OK(io.CreateDirectories("/w/staging/t/empty"));
  FLOE_ASSERT_OK(io.WriteFile("/w/staging/tx", "sibling with a common prefix", false));
  FLOE_ASSERT_OK(io.CreateDirectories("/w/live"));

  FLOE_ASSERT_OK(io.RenameNoReplace("/w/staging/t", "/w/live/t"));
  EXPECT_EQ(io.ReadFile("/w/live/t/data/a").value(), "1");
  EXPECT_EQ(io.ReadFile("/w/live/t/metadata/v1.metadata.json").value(), "2");
  EXPECT_EQ(Names(io, "/w/live/t"), (std::vector<std::string>{"data", "empty", "metadata"}));
  EXPECT_EQ(Names(io, "/w/staging"), std::vector<std::string>{"tx"});
  EXPECT_FALSE(io.Exists("/w/staging/t/data/a").value());

  auto into_itself = io.Rename("/w/live/t", "/w/live/t/data/t");
  ASSERT_FALSE(into_itself.has_value());
  EXPECT_EQ(into_itself.error().kind(), ErrorKind::kInvalidArgument);
  auto onto_file = io.Rename("/w/live/t", "/w/staging/tx");
  ASSERT_FALSE(onto_file.has_value());
  EXPECT_EQ(onto_file.error().kind(), ErrorKind::kIO);
  FLOE_ASSERT_OK(io.CreateDirectories("/w/full/f"));
  auto onto_full = io.Rename("/w/live/t", "/w/full");
  ASSERT_FALSE(onto_full.has_value());
  EXPECT_EQ(onto_full.error().kind(), ErrorKind::kIO);
  // The target's folder must exist, as for rename(2).
  auto no_parent = io.Rename("/w/staging/tx", "/w/nowhere/tx");
  ASSERT_FALSE(no_parent.has_value());
  EXPECT_EQ(no_parent.error().kind(), ErrorKind::kNotFound);
}

TEST(MemoryFileIOTest, WriterKeepsWritingAfterItsFileIsRenamed) {
  MemoryFileIO io;
  FLOE_ASSERT_OK_AND_ASSIGN(auto output, io.NewOutputFile("/t/tmp"));
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, output->Create());
  FLOE_ASSERT_OK(writer->Write("ab"));
  FLOE_ASSERT_OK(io.Rename("/t/tmp", "/t/final"));
  FLOE_ASSERT_OK(writer->Write("cd"));
  FLOE_ASSERT_OK(writer->Close());
  EXPECT_EQ(io.ReadFile("/t/final").value(), "abcd");
}

TEST(MemoryFileIOTest, EmptyLocationIsInvalid) {
  MemoryFileIO io;
  EXPECT_EQ(io.NewInputFile("").error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(io.CreateDirectories("").error().kind(), ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace floe::io
